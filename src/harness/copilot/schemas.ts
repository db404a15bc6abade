/** Copilot CLI 1.0.102 hook stdin and answers, as measured with the real client; only the fields we read are required. */
import * as z from 'zod/mini';

/** `toolArgs` arrives as an object (measured) or, in some versions and for some tools, as a JSON string. */
const ToolArgs = z.union([z.record(z.string(), z.unknown()), z.string()]);

export const PostToolUseInput = z.looseObject({
  sessionId: z.string().check(z.minLength(1)),
  timestamp: z.optional(z.number()),
  cwd: z.optional(z.string()),
  toolName: z.string(),
  toolArgs: ToolArgs,
  toolResult: z.looseObject({
    resultType: z.string(),
    textResultForLlm: z.string(),
  }),
});
export type PostToolUseInput = z.infer<typeof PostToolUseInput>;

/** What a postToolUse hook prints to replace a successful result (Copilot ignores the rest of a result it replaces). */
export interface PostToolUseAnswer {
  readonly modifiedResult: { readonly resultType: 'success'; readonly textResultForLlm: string };
}

/** The shell tool's name on Linux and macOS (Windows' is `powershell`, not measured). */
export const SHELL_TOOL = 'bash';

/** The command a call ran, from either shape of `toolArgs`; null when there is none we can read. */
export function commandOf(toolArgs: PostToolUseInput['toolArgs']): string | null {
  let args: unknown = toolArgs;
  if (typeof toolArgs === 'string') {
    try {
      args = JSON.parse(toolArgs);
    } catch {
      return null;
    }
  }
  if (typeof args !== 'object' || args === null) return null;
  const command = (args as Record<string, unknown>)['command'];
  return typeof command === 'string' ? command : null;
}
