/**
 * The budget's session events, in no harness's dialect: on a prompt or a resumed start, one short line of context only
 * when the session has climbed to a new rung of the ladder (80/90/95/100%), never on every prompt; before a
 * compaction, the session's key facts saved; on the start after it, re-injected. Each harness adapter turns its own
 * events into these (Claude Code: src/harness/claude-code/session.ts). File access goes through the runtime so the
 * decisions stay testable without a disk.
 */
import * as z from 'zod/mini';
import type { Transcript } from '../transcript/turns.ts';
import { layerBudgets } from './engine.ts';
import { ladderRung } from './ladder.ts';
import { type BudgetSettings, pickProfile } from './settings.ts';
import { renderSnapshot, sessionSnapshot } from './snapshot.ts';
import { LADDER, type BudgetProfile, type CompactAction } from './types.ts';
import { BUILTIN_PROFILES } from './profiles.ts';

interface EventCommon {
  readonly sessionId: string;
  readonly transcriptPath: string | undefined;
}

/** prompt: the user submitted one. start: a session began (source: startup, resume, clear, compact). compact: before. */
export type SessionEvent =
  | (EventCommon & { readonly kind: 'prompt' })
  | (EventCommon & { readonly kind: 'start'; readonly source: string | undefined; readonly contextTokens: number | undefined })
  | (EventCommon & { readonly kind: 'compact' });

export interface SessionRuntime {
  readonly dataDir: string;
  readonly settings: BudgetSettings;
  readFile(path: string): string | null;
  writeFile(path: string, text: string): void;
  /** The harness's transcript format, read into the normalised turn model. */
  parseTranscript(text: string, path: string): Transcript;
}

/** What to add to the model's context (null: nothing), and why, for logs and tests. */
export interface SessionHookResult {
  readonly context: string | null;
  readonly reason: string;
}

const State = z.object({ rung: z.number() });

export function handleSessionEvent(event: SessionEvent, runtime: SessionRuntime): SessionHookResult {
  const safeId = event.sessionId.replace(/[^\w-]/gu, '_');
  const statePath = `${runtime.dataDir}/sessions/${safeId}.json`;
  const snapshotPath = `${runtime.dataDir}/sessions/${safeId}.snapshot.md`;
  if (event.kind === 'compact') {
    const transcript = readTranscript(runtime, event.transcriptPath);
    if (transcript === null) return { context: null, reason: 'no transcript to snapshot' };
    const text = renderSnapshot(sessionSnapshot(transcript));
    runtime.writeFile(snapshotPath, text);
    // After compaction the context is small again: the next crossing must be reported afresh.
    runtime.writeFile(statePath, JSON.stringify({ rung: -1 }));
    return { context: null, reason: text === '' ? 'nothing worth saving' : 'snapshot saved' };
  }
  if (event.kind === 'start' && event.source === 'compact') {
    const snapshot = runtime.readFile(snapshotPath) ?? '';
    return snapshot === '' ? { context: null, reason: 'no snapshot' } : { context: snapshot, reason: 'snapshot re-injected' };
  }
  if (event.kind === 'start' && event.source !== 'resume') return { context: null, reason: 'fresh session' };
  const tokens = event.kind === 'start' && event.contextTokens !== undefined ? event.contextTokens : lastContext(runtime, event.transcriptPath);
  if (tokens === null) return { context: null, reason: 'no usage yet' };
  const profile = pickProfile(runtime.settings) ?? BUILTIN_PROFILES.agentic;
  const line = budgetLine(tokens, runtime.settings.contextWindow, profile);
  const previous = State.safeParse(parseJson(runtime.readFile(statePath))).data?.rung ?? -1;
  const rung = line.rung === null ? -1 : LADDER.indexOf(line.rung);
  if (rung !== previous) runtime.writeFile(statePath, JSON.stringify({ rung }));
  if (rung <= previous || line.rung === null) return { context: null, reason: rung < 0 ? 'below 80%' : 'rung already reported' };
  return { context: line.text, reason: `crossed ${line.rung}` };
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

function readTranscript(runtime: SessionRuntime, path: string | undefined): Transcript | null {
  const text = path === undefined ? null : runtime.readFile(path);
  return text === null || path === undefined ? null : runtime.parseTranscript(text, path);
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
