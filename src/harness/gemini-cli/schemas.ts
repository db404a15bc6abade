/** Gemini CLI 0.61.0 hook stdin, as measured with the real client (FINDINGS.md); only the fields we read are required. */
import * as z from 'zod/mini';

export const BeforeToolInput = z.looseObject({
  session_id: z.string().check(z.minLength(1)),
  hook_event_name: z.literal('BeforeTool'),
  cwd: z.optional(z.string()),
  tool_name: z.string(),
  tool_input: z.record(z.string(), z.unknown()),
});
export type BeforeToolInput = z.infer<typeof BeforeToolInput>;

/** The shell tool's name in Gemini CLI (its policy engine knows it as SHELL_TOOL_NAMES' first entry). */
export const SHELL_TOOL = 'run_shell_command';
