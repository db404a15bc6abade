/**
 * `tokenless hook session`: Claude Code's UserPromptSubmit, SessionStart and PreCompact events. Exit 2 from
 * UserPromptSubmit would block the user's prompt, so every failure here exits 1 (non-blocking) or prints nothing.
 */
import { answerSessionEvent, isSessionEvent } from '../src/adapters/claude-code/session.ts';
import { nestsDeeperThan, tooDeep } from '../src/protocol/depth.ts';
import { resolveDataDir } from '../src/store/data-dir.ts';
import { failed, ok, silent, type HookOutcome } from './outcome.ts';

export function handleSessionHook(text: string): HookOutcome {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return failed(`stdin is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (nestsDeeperThan(raw)) return failed(tooDeep());
  const event = typeof raw === 'object' && raw !== null ? (raw as { hook_event_name?: unknown }).hook_event_name : undefined;
  if (!isSessionEvent(event)) return failed(`not a session event: hook_event_name is ${JSON.stringify(event)}`);
  const { answer } = answerSessionEvent(raw, resolveDataDir());
  return answer === null ? silent() : ok(answer);
}
