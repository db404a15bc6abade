/**
 * Claude Code's session events (UserPromptSubmit, SessionStart, PreCompact) answered by the budget's session logic:
 * one short line of additional context when a ladder threshold is crossed, and the compaction snapshot. Shared by
 * `tokenless hook session` and the HTTP hook server.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { handleSessionEvent, type SessionRuntime } from '../../budget/session-hooks.ts';
import { loadBudgetSettings } from '../../budget/settings.ts';

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
    return { answer: result.stdout, note: result.reason };
  } catch (error) {
    return { answer: null, note: `session hook skipped: ${error instanceof Error ? error.message : String(error)}` };
  }
}
