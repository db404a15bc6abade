/**
 * Claude Code dialect (stdin carries `hook_event_name`): PreToolUse -> pre_tool, PostToolUse -> post_tool, answered
 * with Claude Code's own hook output by the same function the HTTP hook server uses. Exit 2 would block the tool in
 * Claude Code, so a malformed Claude Code event exits 1 (non-blocking: the tool runs unchanged) with the reason on
 * stderr.
 */
import { answerClaudeCodeEvent } from '../src/adapters/claude-code/answer.ts';
import type { Lifecycle } from '../src/protocol/schemas.ts';
import type { Runtime } from '../src/runtime/runtime.ts';
import { failed, ok, silent, type HookOutcome } from './outcome.ts';

const EVENT_FOR: Partial<Record<Lifecycle, string>> = { pre_tool: 'PreToolUse', post_tool: 'PostToolUse' };

export async function handleClaudeCode(lifecycle: Lifecycle, raw: object, runtime: Runtime, wrapperCommand: string): Promise<HookOutcome> {
  const expected = EVENT_FOR[lifecycle];
  if (expected === undefined) return failed(`lifecycle ${lifecycle} has no Claude Code hook event`);
  const event = (raw as { hook_event_name?: unknown }).hook_event_name;
  if (event !== expected) return failed(`not a ${expected} event: hook_event_name is ${JSON.stringify(event)}`);
  const outcome = await answerClaudeCodeEvent(raw, runtime, { wrapperCommand, env: process.env });
  if ('error' in outcome) return failed(outcome.error);
  return outcome.answer === null ? silent(outcome.note) : ok(outcome.answer);
}
