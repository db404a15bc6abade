/**
 * Claude Code dialect (stdin carries `hook_event_name`): PreToolUse -> pre_tool, PostToolUse -> post_tool, answered
 * with Claude Code's own hook output. Exit 2 would block the tool in Claude Code, so a malformed Claude Code event
 * exits 1 (non-blocking: the tool runs unchanged) with the reason on stderr.
 */
import { PreToolUseInput, PostToolUseInput } from '../src/adapters/claude-code/schemas.ts';
import { describeIssues } from '../src/protocol/parse.ts';
import { PROTOCOL_VERSION, type Lifecycle } from '../src/protocol/schemas.ts';
import type { Runtime } from '../src/runtime/runtime.ts';
import { failed, ok, silent, type HookOutcome } from './outcome.ts';

export const CLAUDE_CODE_AGENT_ID = 'claude-code';

export async function handleClaudeCode(lifecycle: Lifecycle, raw: object, runtime: Runtime, wrapperCommand: string): Promise<HookOutcome> {
  if (lifecycle === 'pre_tool') return handlePreToolUse(raw, runtime, wrapperCommand);
  if (lifecycle === 'post_tool') return handlePostToolUse(raw, runtime, wrapperCommand);
  return failed(`lifecycle ${lifecycle} has no Claude Code hook event`);
}

async function handlePreToolUse(raw: object, runtime: Runtime, wrapperCommand: string): Promise<HookOutcome> {
  const parsed = PreToolUseInput.safeParse(raw);
  if (!parsed.success) return failed(`not a PreToolUse event: ${describeIssues(parsed.error)}`);
  const event = parsed.data;
  if (event.tool_name !== 'Bash') return silent();
  const { preTool } = await import('../src/runtime/pre-tool.ts');
  const result = preTool(
    runtime,
    {
      protocol_version: PROTOCOL_VERSION,
      operation: 'pre_tool',
      attribution: { agent_id: CLAUDE_CODE_AGENT_ID, session_id: event.session_id, tool_use_id: event.tool_use_id },
      input: { tool_name: event.tool_name, arguments: event.tool_input, command_field: 'command' },
    },
    { wrapperCommand },
  );
  if (result.action !== 'replace_arguments' || result.arguments === undefined) return silent();
  // updatedInput replaces the whole input: every original field is kept, only the command differs.
  return ok({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { ...event.tool_input, ...result.arguments } } });
}

async function handlePostToolUse(raw: object, runtime: Runtime, wrapperCommand: string): Promise<HookOutcome> {
  const parsed = PostToolUseInput.safeParse(raw);
  if (!parsed.success) return failed(`not a PostToolUse event: ${describeIssues(parsed.error)}`);
  const event = parsed.data;
  const [{ toolSlot }, { classifyContent }, { postTool }] = await Promise.all([
    import('../src/adapters/claude-code/tool-output.ts'),
    import('../src/compress/classify.ts'),
    import('../src/runtime/post-tool.ts'),
  ]);
  const slot = toolSlot(event, (command) => classifyOurCommand(command, wrapperCommand));
  if (typeof slot === 'string') return silent();
  if (slot.origin === 'file_content' && ['source_code', 'plain_text'].includes(classifyContent(slot.text))) return silent();
  const result = postTool(runtime, {
    protocol_version: PROTOCOL_VERSION,
    operation: 'post_tool',
    attribution: { agent_id: CLAUDE_CODE_AGENT_ID, session_id: event.session_id, tool_use_id: event.tool_use_id },
    input: { tool_name: event.tool_name, status: 'success', origin: slot.origin, content: slot.text, result_kind: slot.resultKind },
  });
  if (result.disposition !== 'applied') return silent();
  return ok({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: slot.rebuild(result.output) } });
}

/** Our own commands: wrapped ones were filtered already, retrieve output must never be compressed again. */
export function classifyOurCommand(command: string, wrapperCommand: string): 'wrapped' | 'retrieve' | 'other' {
  if (/(^|[\s;&|(])(\S*\/)?(tokenless|syt|cli\.js'?)\s+retrieve\b/.test(command)) return 'retrieve';
  if (command.includes(`${wrapperCommand} run -- `)) return 'wrapped';
  return 'other';
}
