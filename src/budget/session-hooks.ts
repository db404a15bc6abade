/**
 * Claude Code session hooks for the budget: UserPromptSubmit and SessionStart add one short line of context only
 * when the session has climbed to a new rung of the ladder (80/90/95/100%), never on every prompt; PreCompact saves
 * the session's key facts, and SessionStart after a compaction re-injects them. File access goes through the runtime
 * so the decisions stay testable without a disk.
 */
import * as z from 'zod/mini';
import { readClaudeCodeTranscript } from '../transcript/claude-code-turns.ts';
import { layerBudgets } from './engine.ts';
import { ladderRung } from './ladder.ts';
import { type BudgetSettings, pickProfile } from './settings.ts';
import { renderSnapshot, sessionSnapshot } from './snapshot.ts';
import { LADDER, type BudgetProfile, type CompactAction } from './types.ts';
import { BUILTIN_PROFILES } from './profiles.ts';

const Common = { session_id: z.string(), transcript_path: z.optional(z.string()), cwd: z.optional(z.string()) };
export const SessionEvent = z.discriminatedUnion('hook_event_name', [
  z.looseObject({ ...Common, hook_event_name: z.literal('UserPromptSubmit') }),
  z.looseObject({ ...Common, hook_event_name: z.literal('SessionStart'), source: z.optional(z.string()), context_tokens: z.optional(z.number()) }),
  z.looseObject({ ...Common, hook_event_name: z.literal('PreCompact'), trigger: z.optional(z.string()) }),
]);
export type SessionEvent = z.infer<typeof SessionEvent>;

export interface SessionRuntime {
  readonly dataDir: string;
  readonly settings: BudgetSettings;
  readFile(path: string): string | null;
  writeFile(path: string, text: string): void;
}

/** What the hook prints: Claude Code hook JSON, or nothing. */
export interface SessionHookResult {
  readonly stdout: Record<string, unknown> | null;
  /** Why nothing or something was said, for logs and tests. */
  readonly reason: string;
}

const State = z.object({ rung: z.number() });

export function handleSessionEvent(raw: unknown, runtime: SessionRuntime): SessionHookResult {
  const parsed = SessionEvent.safeParse(raw);
  if (!parsed.success) return { stdout: null, reason: 'not a session event' };
  const event = parsed.data;
  const safeId = event.session_id.replace(/[^\w-]/gu, '_');
  const statePath = `${runtime.dataDir}/sessions/${safeId}.json`;
  const snapshotPath = `${runtime.dataDir}/sessions/${safeId}.snapshot.md`;
  if (event.hook_event_name === 'PreCompact') {
    const transcript = readTranscript(runtime, event.transcript_path);
    if (transcript === null) return { stdout: null, reason: 'no transcript to snapshot' };
    const text = renderSnapshot(sessionSnapshot(transcript));
    runtime.writeFile(snapshotPath, text);
    // After compaction the context is small again: the next crossing must be reported afresh.
    runtime.writeFile(statePath, JSON.stringify({ rung: -1 }));
    return { stdout: null, reason: text === '' ? 'nothing worth saving' : 'snapshot saved' };
  }
  if (event.hook_event_name === 'SessionStart' && event.source === 'compact') {
    const snapshot = runtime.readFile(snapshotPath) ?? '';
    return snapshot === '' ? { stdout: null, reason: 'no snapshot' } : { stdout: additionalContext('SessionStart', snapshot), reason: 'snapshot re-injected' };
  }
  if (event.hook_event_name === 'SessionStart' && event.source !== 'resume') return { stdout: null, reason: 'fresh session' };
  const tokens = event.hook_event_name === 'SessionStart' && event.context_tokens !== undefined ? event.context_tokens : lastContext(runtime, event.transcript_path);
  if (tokens === null) return { stdout: null, reason: 'no usage yet' };
  const profile = pickProfile(runtime.settings) ?? BUILTIN_PROFILES.agentic;
  const line = budgetLine(tokens, runtime.settings.contextWindow, profile);
  const previous = State.safeParse(parseJson(runtime.readFile(statePath))).data?.rung ?? -1;
  const rung = line.rung === null ? -1 : LADDER.indexOf(line.rung);
  if (rung !== previous) runtime.writeFile(statePath, JSON.stringify({ rung }));
  if (rung <= previous || line.rung === null) return { stdout: null, reason: rung < 0 ? 'below 80%' : 'rung already reported' };
  return { stdout: additionalContext(event.hook_event_name, line.text), reason: `crossed ${line.rung}` };
}

const ADVICE: Record<CompactAction, string> = {
  drop_stale_ephemeral: 'old tool output is the first thing to let go',
  summarize_ephemeral: 'summarise finished work; `syt compact --auto` folds done items in progress notes',
  compact_session: 'compact soon (/compact) and keep notes short',
  force_trim_persistent: 'the window is full: /compact now',
};

/** One line: where the context stands against the usable window, and what the ladder asks for at that rung. */
export function budgetLine(contextTokens: number, contextWindow: number, profile: BudgetProfile): { rung: CompactAction | null; text: string } {
  const { available } = layerBudgets(contextWindow, profile);
  const utilization = available === 0 ? 1 : contextTokens / available;
  const rung = ladderRung(utilization);
  const text = `[syt] context at ${Math.round(utilization * 100)}% of the usable window (${contextTokens.toLocaleString('en-US')} of ${available.toLocaleString('en-US')} tokens, ${profile.name} profile)${rung === null ? '' : `: ${ADVICE[rung]}`}.`;
  return { rung, text };
}

function additionalContext(hookEventName: string, text: string): Record<string, unknown> {
  return { hookSpecificOutput: { hookEventName, additionalContext: text } };
}

function readTranscript(runtime: SessionRuntime, path: string | undefined): ReturnType<typeof readClaudeCodeTranscript> | null {
  const text = path === undefined ? null : runtime.readFile(path);
  return text === null || path === undefined ? null : readClaudeCodeTranscript(text, path);
}

/** The main chain's latest request context (input + cache read + cache write). */
function lastContext(runtime: SessionRuntime, path: string | undefined): number | null {
  const transcript = readTranscript(runtime, path);
  return transcript?.requests.filter((r) => !r.sidechain).at(-1)?.contextTokens ?? null;
}

function parseJson(text: string | null): unknown {
  try {
    return text === null ? null : JSON.parse(text);
  } catch {
    return null;
  }
}
