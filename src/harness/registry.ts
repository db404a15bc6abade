/**
 * Every harness we support, in the order their recognisers are asked. A new agent is one folder under src/harness/
 * plus one line here. Gemini CLI is asked first because its events are recognised by name, then Codex CLI (Claude
 * Code's event names, plus a `turn_id` Claude Code never sends); Claude Code, the first harness, takes every other
 * event that carries `hook_event_name` (so a malformed Claude Code event still gets Claude Code's error, as before
 * the seam).
 */
import { isCodexEvent } from './codex/events.ts';
import { GEMINI_CLI_EVENTS } from './gemini-cli/events.ts';
import type { HarnessEntry, HarnessName } from './types.ts';

export const HARNESSES: readonly HarnessEntry[] = [
  {
    name: 'gemini-cli',
    sessionEnv: null,
    recognises: (raw) => typeof raw['hook_event_name'] === 'string' && (GEMINI_CLI_EVENTS as readonly string[]).includes(raw['hook_event_name']),
    load: async () => (await import('./gemini-cli/harness.ts')).geminiCli,
  },
  { name: 'codex', sessionEnv: 'CODEX_SESSION_ID', recognises: isCodexEvent, load: async () => (await import('./codex/harness.ts')).codex },
  {
    name: 'claude-code',
    sessionEnv: 'CLAUDE_CODE_SESSION_ID',
    recognises: (raw) => 'hook_event_name' in raw,
    load: async () => (await import('./claude-code.ts')).claudeCode,
  },
];

/** The harness a hook event came from, or null for a native protocol envelope (no harness dialect). */
export function harnessForEvent(raw: Record<string, unknown>): HarnessEntry | null {
  return HARNESSES.find((entry) => entry.recognises(raw)) ?? null;
}

export function harnessByName(name: HarnessName): HarnessEntry {
  const entry = HARNESSES.find((candidate) => candidate.name === name);
  if (entry === undefined) throw new Error(`no harness named ${name}`);
  return entry;
}

/** The session a command of ours runs in: ours first, then whichever harness variable is set (`??` order, as before). */
export function sessionFromEnv(env: Readonly<Record<string, string | undefined>>): string | null {
  for (const name of ['TOKENLESS_SESSION_ID', ...HARNESSES.flatMap((entry) => (entry.sessionEnv === null ? [] : [entry.sessionEnv]))]) {
    const value = env[name];
    if (value !== undefined) return value;
  }
  return null;
}
