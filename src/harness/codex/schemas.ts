/** Codex CLI 0.169.0 PreToolUse stdin, as measured with the real client; only the fields we read are required. */
import * as z from 'zod/mini';

export const PreToolUseInput = z.looseObject({
  session_id: z.string().check(z.minLength(1)),
  turn_id: z.string(),
  hook_event_name: z.literal('PreToolUse'),
  cwd: z.optional(z.string()),
  permission_mode: z.optional(z.string()),
  tool_name: z.string(),
  tool_input: z.record(z.string(), z.unknown()),
  tool_use_id: z.string().check(z.minLength(1)),
});
export type PreToolUseInput = z.infer<typeof PreToolUseInput>;

/** Codex reports its shell tools (exec_command, shell, shell_command) to hooks under this one name. */
export const SHELL_TOOL = 'Bash';
