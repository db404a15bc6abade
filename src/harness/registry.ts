/**
 * Every harness we support, in the order their recognisers are asked. A new agent is one folder under src/harness/
 * (its `harness.ts` exports the heavy part as `harness`, loaded by load.ts) plus one entry here. Gemini CLI is asked
 * first because its events are recognised by name, then Codex CLI (Claude Code's event names, plus a `turn_id` Claude
 * Code never sends); Claude Code, the first harness, takes every other event that carries `hook_event_name` (so a
 * malformed Claude Code event still gets Claude Code's error, as before the seam).
 */
import { isCodexEvent } from './codex/events.ts';
import { isCopilotEvent } from './copilot/events.ts';
import { GEMINI_CLI_EVENTS } from './gemini-cli/events.ts';
import type { HarnessEntry } from './types.ts';

export const HARNESSES = [
  {
    name: 'gemini-cli',
    sessionEnv: null,
    recognises: (raw) => typeof raw['hook_event_name'] === 'string' && (GEMINI_CLI_EVENTS as readonly string[]).includes(raw['hook_event_name']),
  },
  // OpenCode's plugin sends the native protocol (src/harness/opencode/plugin-source.ts): no event of its own to recognise.
  { name: 'opencode', sessionEnv: null, recognises: () => false },
  // Pi's extension sends the native protocol too (src/harness/pi/extension-source.ts).
  { name: 'pi', sessionEnv: null, recognises: () => false },
  { name: 'codex', sessionEnv: 'CODEX_SESSION_ID', recognises: isCodexEvent },
  // Copilot CLI's camelCase events carry no hook_event_name; its shell names the session in COPILOT_AGENT_SESSION_ID.
  { name: 'copilot', sessionEnv: 'COPILOT_AGENT_SESSION_ID', recognises: isCopilotEvent },
  {
    name: 'claude-code',
    sessionEnv: 'CLAUDE_CODE_SESSION_ID',
    recognises: (raw) => 'hook_event_name' in raw,
  },
] as const satisfies readonly HarnessEntry[];

export type HarnessName = (typeof HARNESSES)[number]['name'];
/** `--harness` when none is given: the first harness we supported. */
export const DEFAULT_HARNESS: HarnessName = 'claude-code';
const ENTRIES: readonly HarnessEntry[] = HARNESSES;

/** Every harness in the order a person reads them (init and doctor --harness all): the default first. */
export function agentOrder(): HarnessEntry[] {
  return [...ENTRIES.filter((entry) => entry.name === DEFAULT_HARNESS), ...ENTRIES.filter((entry) => entry.name !== DEFAULT_HARNESS)];
}

/** For `--harness NAME` (zod wants a non-empty tuple). */
export const HARNESS_NAMES = HARNESSES.map((entry) => entry.name) as [HarnessName, ...HarnessName[]];

/** The harness a hook event came from, or null for a native protocol envelope (no harness dialect). */
export function harnessForEvent(raw: Record<string, unknown>): HarnessEntry | null {
  return ENTRIES.find((entry) => entry.recognises(raw)) ?? null;
}

export function harnessByName(name: HarnessName): HarnessEntry {
  const entry = ENTRIES.find((candidate) => candidate.name === name);
  if (entry === undefined) throw new Error(`no harness named ${name}`);
  return entry;
}

/** Every variable that may name the session a command of ours runs in: ours first, then each harness's. */
export const SESSION_ENV: readonly string[] = ['TOKENLESS_SESSION_ID', ...HARNESSES.flatMap((entry) => (entry.sessionEnv === null ? [] : [entry.sessionEnv]))];

/** The session a command of ours runs in: the first of SESSION_ENV that is set (`??` order, as before). */
export function sessionFromEnv(env: Readonly<Record<string, string | undefined>>): string | null {
  for (const name of SESSION_ENV) {
    const value = env[name];
    if (value !== undefined) return value;
  }
  return null;
}
