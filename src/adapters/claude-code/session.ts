/**
 * Claude Code's session events (UserPromptSubmit, SessionStart, PreCompact) answered by the budget's session logic:
 * one short line of additional context when a ladder threshold is crossed, and the compaction snapshot. Shared by
 * `tokenless hook session` and the HTTP hook server.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { handleSessionEvent, type SessionRuntime } from '../../budget/session-hooks.ts';
import { loadBudgetSettings } from '../../budget/settings.ts';
import { RETRIEVAL_GUIDE } from '../../store/marker.ts';
import { ReadLedger } from '../../store/reads.ts';

export const SESSION_EVENTS = ['UserPromptSubmit', 'SessionStart', 'PreCompact'] as const;

export function isSessionEvent(name: unknown): boolean {
  return typeof name === 'string' && (SESSION_EVENTS as readonly string[]).includes(name);
}

/** The hook JSON to print, or null (nothing to say). Failures to read or write are "nothing to say": never block a prompt. */
export function answerSessionEvent(raw: unknown, dataDir: string): { answer: Record<string, unknown> | null; note: string } {
  const runtime: SessionRuntime = {
    dataDir,
    settings: loadBudgetSettings(dataDir),
    readFile: (path) => {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return null;
      }
    },
    writeFile: (path, text) => {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writeFileSync(path, text, { mode: 0o600 });
    },
  };
  try {
    const result = handleSessionEvent(raw, runtime);
    const event = raw as { hook_event_name?: unknown; session_id?: unknown; source?: unknown };
    if (contextRebuilt(event)) forgetReads(dataDir, String(event.session_id));
    const answer = event.hook_event_name === 'SessionStart' ? withGuide(result.stdout) : result.stdout;
    return { answer, note: result.reason };
  } catch (error) {
    return { answer: null, note: `session hook skipped: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Compaction and /clear rebuild the context: no earlier Read result is in it any more. */
function contextRebuilt(event: { hook_event_name?: unknown; session_id?: unknown; source?: unknown }): boolean {
  if (typeof event.session_id !== 'string') return false;
  return event.hook_event_name === 'PreCompact' || (event.hook_event_name === 'SessionStart' && (event.source === 'compact' || event.source === 'clear'));
}

/** Best effort: a ledger that cannot be opened here cannot be read by the next Read either, so nothing is pointed at. */
function forgetReads(dataDir: string, sessionId: string): void {
  try {
    const ledger = ReadLedger.open(dataDir);
    try {
      ledger.forget(sessionId);
    } finally {
      ledger.close();
    }
  } catch {
    // See above.
  }
}

/**
 * Every session start (startup, resume, clear, compact: each begins a context that has not seen it) says once what
 * the retrieval line means and how to ask for part of an original, so views carry only the short line.
 */
function withGuide(answer: Record<string, unknown> | null): Record<string, unknown> {
  const specific = (answer?.['hookSpecificOutput'] ?? {}) as { additionalContext?: unknown };
  const said = typeof specific.additionalContext === 'string' && specific.additionalContext !== '' ? `${specific.additionalContext}\n` : '';
  return { ...answer, hookSpecificOutput: { ...specific, hookEventName: 'SessionStart', additionalContext: `${said}${RETRIEVAL_GUIDE}` } };
}
