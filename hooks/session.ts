/**
 * `tokenless hook session`: the context budget's session events, answered by the harness they came from (Claude
 * Code's UserPromptSubmit, SessionStart and PreCompact). Exit 2 from UserPromptSubmit would block the user's prompt,
 * so every failure here exits 1 (non-blocking) or prints nothing.
 */
import { loadHarness } from '../src/harness/load.ts';
import { harnessForEvent } from '../src/harness/registry.ts';
import { nestsDeeperThan, tooDeep } from '../src/protocol/depth.ts';
import { resolveDataDir } from '../src/config/data-dir.ts';
import { telemetryOn } from '../src/telemetry/status.ts';
import { failed, ok, silent, type HookOutcome } from './outcome.ts';

/** `seen.harness` is set once the event's harness is known (the hook-call log's attribute). */
export async function handleSessionHook(text: string, seen: { harness?: string } = {}): Promise<HookOutcome> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return failed(`stdin is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (nestsDeeperThan(raw)) return failed(tooDeep());
  const event = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
  const entry = event === null ? null : harnessForEvent(event);
  if (event === null || entry === null) return failed('not a session event: no harness we know sent it');
  seen.harness = entry.name;
  const { answerSession } = await loadHarness(entry);
  if (answerSession === null) return failed(`not a session event: ${entry.name} sends none of ours`);
  const outcome = await answerSession(event, resolveDataDir());
  if ('error' in outcome) return failed(outcome.error);
  if (outcome.sessionEnded === true) {
    if (telemetryOn(process.env)) (await import('./detached-export.ts')).startDetachedExport();
    await (await import('./gateway-session-end.ts')).tellGatewaySessionEnded(resolveDataDir(), process.env['ANTHROPIC_BASE_URL'], event['session_id']);
  }
  return outcome.answer === null ? silent() : ok(outcome.answer);
}
