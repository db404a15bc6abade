/**
 * `syt cost history` as pure logic: a person's own sessions, each already reproduced and priced by the cache
 * simulator (`reportSession`), summed into what the hooks and each policy would have saved. Every policy the
 * simulator knows (`POLICIES`) gets its total here without being named: a policy added there shows up in the report.
 * A session whose validation error is over `MAX_VALIDATION_ERROR` is listed but adds nothing to any saving, and every
 * saving carries the largest error of the sessions it sums.
 */
import { NET_FORMULA } from './net.ts';
import { priceFor, type ModelPrice } from './pricing.ts';
import { MAX_VALIDATION_ERROR, POLICIES, type PolicyName, type SessionReport } from './simulate-report.ts';

/** What the session replay found for the hooks in one session (o200k tokens the agent saw, before and after). */
export interface HookReplayFacts {
  readonly tool_results: number;
  readonly tokens_before: number;
  readonly tokens_after: number;
  /** Stashed originals that did not come back byte-exact: a replay with any is reported, never hidden. */
  readonly retrieval_failures: number;
  /** Results the hooks shortened, and those with evidence the agent needed what was cut (src/replay/evidence.ts). */
  readonly shortened: number;
  readonly with_evidence: number;
  /** Each view with evidence as a retrieval turn (src/cost/net.ts): tokens, and dollars at the session's prices. */
  readonly turn_tokens: number;
  readonly turn_dollars: number;
}

export interface HistorySession extends SessionReport {
  /** The transcript's path as found (absolute). */
  readonly path: string;
  /** The directory under `projects/` the transcript lives in (Claude Code names it after the project path). */
  readonly project: string;
  /** When its first billed request was sent (ISO), null when none has a time. */
  readonly started: string | null;
  /** Model ids its requests were billed as. */
  readonly models: readonly string[];
  /** Lines that were not JSON or not a transcript line, skipped. */
  readonly malformed_lines: number;
  readonly hooks_replay: HookReplayFacts | null;
  /** Why the hooks were not priced in this session (the replay failed), else null. */
  readonly hooks_error: string | null;
}

export type SkipReason = 'unreadable' | 'too large' | 'not a transcript' | 'no billed requests' | 'failed';

export interface SkippedFile {
  readonly path: string;
  readonly reason: SkipReason;
  readonly detail: string;
}

/** Transcripts found but not read: the bounds and filters, counted so a total never silently covers less. */
export interface NotTaken {
  readonly before_since: number;
  readonly other_project: number;
  readonly over_limit: number;
  readonly over_time: number;
}

export interface PolicyTotal {
  readonly policy: PolicyName;
  /** Summed over the reproduced sessions where it was priced; negative: it would have cost more. */
  readonly dollars: number;
  /** Of the simulated cost (no policy) of those same sessions. */
  readonly fraction: number;
  readonly sessions_priced: number;
  readonly sessions_paying: number;
  /** The largest validation error among the sessions summed. */
  readonly validation_error: number;
}

export interface HistoryTotals {
  readonly sessions: number;
  readonly reproduced: number;
  readonly excluded: number;
  /** Every listed session, at the dated prices, from its recorded usage (not simulated). */
  readonly recorded_cost: number;
  /** The reproduced sessions only: what the savings below are claimed against. */
  readonly recorded_cost_reproduced: number;
  readonly reproduced_cost: number;
  /** The largest validation error among the reproduced sessions. */
  readonly validation_error: number;
  /** Their validation errors weighted by simulated cost: how far off a dollar of the totals is on average. */
  readonly validation_error_weighted: number;
  readonly policies: readonly PolicyTotal[];
  /** The headline: the hooks, the folds where they fold and the online TTL rule, each decided without hindsight. */
  readonly online: CombinedTotal;
  /** An upper bound, never a saving: per session the TTL policy that saved most there, chosen with hindsight. */
  readonly hindsightBound: CombinedTotal;
}

export interface CombinedTotal {
  readonly cost: number;
  readonly dollars: number;
  readonly fraction: number;
  readonly validation_error: number;
}

export interface HistoryReport {
  readonly bound: number;
  readonly sessions: readonly HistorySession[];
  readonly totals: HistoryTotals;
  readonly skipped: readonly SkippedFile[];
  readonly skipped_by_reason: Readonly<Partial<Record<SkipReason, number>>>;
  readonly not_taken: NotTaken;
  /** The price rows the sessions were billed at, each with the day it was taken. */
  readonly prices: readonly ModelPrice[];
  /** The hooks' saving beside what the retrieval turns its views would have cost (issue 23); negatives kept. */
  readonly hooks_net: HooksNet;
}

export interface HooksNet {
  readonly gross_dollars: number;
  readonly turn_dollars: number;
  readonly net_dollars: number;
  readonly shortened: number;
  readonly with_evidence: number;
  readonly formula: string;
}

/** Over the reproduced sessions whose hooks were priced: the hooks' dollars minus their views' retrieval turns. */
export function hooksNet(sessions: readonly HistorySession[]): HooksNet {
  const priced = sessions.filter((s) => s.excluded === null && s.savings.hooks !== null);
  const gross = priced.reduce((sum, s) => sum + (s.savings.hooks?.dollars ?? 0), 0);
  const turns = priced.reduce((sum, s) => sum + (s.hooks_replay?.turn_dollars ?? 0), 0);
  return {
    gross_dollars: gross,
    turn_dollars: turns,
    net_dollars: gross - turns,
    shortened: priced.reduce((sum, s) => sum + (s.hooks_replay?.shortened ?? 0), 0),
    with_evidence: priced.reduce((sum, s) => sum + (s.hooks_replay?.with_evidence ?? 0), 0),
    formula: `${NET_FORMULA}: one turn per shortened result whose original the agent's next messages show it needed`,
  };
}

export function historyReport(sessions: readonly HistorySession[], skipped: readonly SkippedFile[], notTaken: NotTaken): HistoryReport {
  const ordered = [...sessions].sort((a, b) => (a.started ?? '\uffff').localeCompare(b.started ?? '\uffff') || a.path.localeCompare(b.path));
  const skippedByReason: Partial<Record<SkipReason, number>> = {};
  for (const s of skipped) skippedByReason[s.reason] = (skippedByReason[s.reason] ?? 0) + 1;
  return { bound: MAX_VALIDATION_ERROR, sessions: ordered, totals: historyTotals(ordered), skipped, skipped_by_reason: skippedByReason, not_taken: notTaken, prices: pricesUsed(ordered), hooks_net: hooksNet(ordered) };
}

export function historyTotals(sessions: readonly SessionReport[]): HistoryTotals {
  const kept = sessions.filter((s) => s.excluded === null);
  const sum = (of: readonly SessionReport[], pick: (s: SessionReport) => number) => of.reduce((total, s) => total + pick(s), 0);
  const worst = (of: readonly SessionReport[]) => of.reduce((max, s) => Math.max(max, s.validation_error), 0);
  const reproduced = sum(kept, (s) => s.reproduced_cost);
  const simulated = sum(kept, (s) => s.simulated_cost);
  const hindsight = sum(kept, (s) => s.hindsight_cost);
  const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
  const policies = POLICIES.map((policy): PolicyTotal => {
    const priced = kept.filter((s) => s.savings[policy] !== null);
    const dollars = sum(priced, (s) => s.savings[policy]?.dollars ?? 0);
    return {
      policy,
      dollars,
      fraction: share(dollars, sum(priced, (s) => s.reproduced_cost)),
      sessions_priced: priced.length,
      sessions_paying: priced.filter((s) => (s.savings[policy]?.dollars ?? 0) > 0).length,
      validation_error: worst(priced),
    };
  });
  return {
    sessions: sessions.length,
    reproduced: kept.length,
    excluded: sessions.length - kept.length,
    recorded_cost: sum(sessions, (s) => s.recorded_cost),
    recorded_cost_reproduced: sum(kept, (s) => s.recorded_cost),
    reproduced_cost: reproduced,
    validation_error: worst(kept),
    validation_error_weighted: share(sum(kept, (s) => s.validation_error * s.reproduced_cost), reproduced),
    policies,
    online: { cost: simulated, dollars: reproduced - simulated, fraction: share(reproduced - simulated, reproduced), validation_error: worst(kept) },
    hindsightBound: { cost: hindsight, dollars: reproduced - hindsight, fraction: share(reproduced - hindsight, reproduced), validation_error: worst(kept) },
  };
}

function pricesUsed(sessions: readonly HistorySession[]): ModelPrice[] {
  const rows = new Map<string, ModelPrice>();
  for (const model of new Set(sessions.flatMap((s) => s.models))) {
    const price = priceFor(model);
    if (price !== null) rows.set(price.model, price);
  }
  return [...rows.values()].sort((a, b) => a.model.localeCompare(b.model));
}

/** The hooks' o200k savings per tool result (tool_use id -> before - after), as `reportSession` prices them. */
export function hookSavingsOf(calls: readonly { readonly toolUseId: string; readonly before: number; readonly after: number }[]): Map<string, number> {
  return new Map(calls.map((call) => [call.toolUseId, call.before - call.after]));
}

export interface ReplayedCallFacts {
  readonly before: number;
  readonly after: number;
  readonly retrievalFailures: number;
  readonly viewKind?: string | null;
  readonly evidence?: readonly string[];
  readonly turnTokens?: number;
  readonly turnCost?: number;
}

export function hookReplayFacts(calls: readonly ReplayedCallFacts[]): HookReplayFacts {
  return {
    tool_results: calls.length,
    tokens_before: calls.reduce((n, c) => n + c.before, 0),
    tokens_after: calls.reduce((n, c) => n + c.after, 0),
    retrieval_failures: calls.reduce((n, c) => n + c.retrievalFailures, 0),
    shortened: calls.filter((c) => (c.viewKind ?? null) !== null).length,
    with_evidence: calls.filter((c) => (c.evidence?.length ?? 0) > 0).length,
    turn_tokens: calls.reduce((n, c) => n + (c.turnTokens ?? 0), 0),
    turn_dollars: calls.reduce((n, c) => n + (c.turnCost ?? 0), 0),
  };
}
