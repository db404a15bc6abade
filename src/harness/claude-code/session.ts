/**
 * Claude Code's session events (UserPromptSubmit, SessionStart, PreCompact) answered by the budget's session logic:
 * one short line of additional context when a ladder threshold is crossed, and the compaction snapshot; SessionEnd
 * says nothing and only marks the end (the telemetry export, issue 26). Shared by `tokenless hook session` and the
 * HTTP hook server.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as z from 'zod/mini';
import { handleSessionEvent, type SessionEvent, type SessionRuntime } from '../../budget/session-hooks.ts';
import { loadBudgetSettings } from '../../budget/settings.ts';
import { readBoundedText } from '../../io/bounded-read.ts';
import { RETRIEVAL_GUIDE } from '../../store/marker.ts';
import { ReadLedger } from '../../store/reads.ts';
import { readClaudeCodeTranscript } from '../../transcript/claude-code-turns.ts';

export const SESSION_EVENTS = ['UserPromptSubmit', 'SessionStart', 'PreCompact', 'SessionEnd'] as const;

const Common = { session_id: z.string(), transcript_path: z.optional(z.string()), cwd: z.optional(z.string()) };
/** Claude Code's session events, as its hooks receive them on stdin. */
export const ClaudeCodeSessionEvent = z.discriminatedUnion('hook_event_name', [
  z.looseObject({ ...Common, hook_event_name: z.literal('UserPromptSubmit') }),
  z.looseObject({ ...Common, hook_event_name: z.literal('SessionStart'), source: z.optional(z.string()), context_tokens: z.optional(z.number()) }),
  z.looseObject({ ...Common, hook_event_name: z.literal('PreCompact'), trigger: z.optional(z.string()) }),
  z.looseObject({ ...Common, hook_event_name: z.literal('SessionEnd'), reason: z.optional(z.string()) }),
]);

/** The budget's neutral event for one of Claude Code's, or null when it is none of them (or malformed). */
export function budgetEvent(raw: unknown): SessionEvent | null {
  const parsed = ClaudeCodeSessionEvent.safeParse(raw);
  if (!parsed.success) return null;
  const event = parsed.data;
  const common = { sessionId: event.session_id, transcriptPath: event.transcript_path };
  switch (event.hook_event_name) {
    case 'UserPromptSubmit':
      return { ...common, kind: 'prompt' };
    case 'SessionStart':
      return { ...common, kind: 'start', source: event.source, contextTokens: event.context_tokens };
    case 'PreCompact':
      return { ...common, kind: 'compact' };
    case 'SessionEnd':
      return null;
  }
}

export function isSessionEvent(name: unknown): boolean {
  return typeof name === 'string' && (SESSION_EVENTS as readonly string[]).includes(name);
}

/** The hook JSON to print, or null (nothing to say). Failures to read or write are "nothing to say": never block a prompt. */
export function answerSessionEvent(raw: unknown, dataDir: string): { answer: Record<string, unknown> | null; note: string; sessionEnded?: boolean } {
  const runtime: SessionRuntime = {
    dataDir,
    settings: loadBudgetSettings(dataDir),
    // The transcript path comes from the event: a FIFO or a device there must not hang or flood the hook.
    readFile: (path) => {
      const read = readBoundedText(path);
      return read.ok ? read.text : null;
    },
    writeFile: (path, text) => {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writeFileSync(path, text, { mode: 0o600 });
    },
    parseTranscript: readClaudeCodeTranscript,
  };
  try {
    if ((raw as { hook_event_name?: unknown }).hook_event_name === 'SessionEnd') return { answer: null, note: '', sessionEnded: true };
    const parsed = budgetEvent(raw);
    const result = parsed === null ? { context: null, reason: 'not a session event' } : handleSessionEvent(parsed, runtime);
    const event = raw as { hook_event_name?: unknown; session_id?: unknown; source?: unknown };
    if (contextRebuilt(event)) forgetReads(dataDir, String(event.session_id));
    const said = result.context === null ? null : additionalContext(String(event.hook_event_name), result.context);
    const answer = event.hook_event_name === 'SessionStart' ? withGuide(said) : said;
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

function additionalContext(hookEventName: string, text: string): Record<string, unknown> {
  return { hookSpecificOutput: { hookEventName, additionalContext: text } };
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
