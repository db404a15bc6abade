/** Sums of replayed sessions: overall, per tool, per command family and per session, for one mode. */
import { NET_FORMULA } from '../cost/net.ts';
import { FAMILIES, type Family } from './families.ts';
import type { CallReplay, ReplayMode, SessionReplay } from './session-replay.ts';

export interface Totals {
  readonly calls: number;
  /** Results the agent would have seen shorter (or longer: negatives are kept). */
  readonly changed: number;
  readonly rewritten: number;
  readonly replaced: number;
  readonly before: number;
  readonly after: number;
  readonly savedCost: number;
}

export interface SessionRow extends Totals {
  readonly file: string;
  readonly version: string | null;
  readonly billedCost: number;
}

export interface ModeSummary {
  readonly mode: ReplayMode;
  readonly sessions: number;
  readonly billedCost: number;
  readonly unpricedRequests: number;
  readonly overall: Totals;
  readonly byTool: Readonly<Record<string, Totals>>;
  readonly byFamily: Readonly<Record<Family, Totals>>;
  readonly perSession: readonly SessionRow[];
  readonly bash: {
    readonly calls: number;
    readonly failed: number;
    readonly notRun: number;
    readonly rewritten: number;
    readonly decisions: Readonly<Record<string, number>>;
    readonly lineViews: { readonly applied: number; readonly unchanged: number; readonly declined: number };
    readonly declineReasons: Readonly<Record<string, number>>;
  };
  readonly unrenderable: number;
  readonly markers: number;
  readonly retrievalFailures: number;
  readonly net: NetSummary;
}

/** Gross against net (src/cost/net.ts): every shortened result with evidence of need priced as a retrieval turn. */
export interface NetSummary {
  readonly shortened: number;
  readonly withEvidence: number;
  readonly grossTokens: number;
  readonly turnTokens: number;
  readonly netTokens: number;
  readonly grossCost: number;
  readonly turnCost: number;
  readonly netCost: number;
  readonly byViewKind: Readonly<Record<string, { readonly views: number; readonly withEvidence: number; readonly words: readonly string[] }>>;
  readonly formula: string;
}

export function netSummary(calls: readonly CallReplay[]): NetSummary {
  const shortened = calls.filter((call) => call.viewKind !== null);
  const byViewKind: Record<string, { views: number; withEvidence: number; words: string[] }> = {};
  for (const call of shortened) {
    const kind = (byViewKind[call.viewKind ?? ''] ??= { views: 0, withEvidence: 0, words: [] });
    kind.views += 1;
    if (call.evidence.length > 0) {
      kind.withEvidence += 1;
      kind.words.push(...call.evidence.slice(0, 3));
    }
  }
  const grossTokens = calls.reduce((sum, call) => sum + call.before - call.after, 0);
  const turnTokens = calls.reduce((sum, call) => sum + call.turnTokens, 0);
  const grossCost = calls.reduce((sum, call) => sum + call.savedCost, 0);
  const turnCost = calls.reduce((sum, call) => sum + call.turnCost, 0);
  return {
    shortened: shortened.length,
    withEvidence: shortened.filter((call) => call.evidence.length > 0).length,
    grossTokens,
    turnTokens,
    netTokens: grossTokens - turnTokens,
    grossCost,
    turnCost,
    netCost: grossCost - turnCost,
    byViewKind,
    formula: `${NET_FORMULA}, one turn per shortened result with evidence of need (the whole original printed again)`,
  };
}

export function totals(calls: readonly CallReplay[]): Totals {
  let before = 0;
  let after = 0;
  let savedCost = 0;
  for (const call of calls) {
    before += call.before;
    after += call.after;
    savedCost += call.savedCost;
  }
  return {
    calls: calls.length,
    changed: calls.filter((call) => call.after !== call.before).length,
    rewritten: calls.filter((call) => call.rewritten).length,
    replaced: calls.filter((call) => call.replaced).length,
    before,
    after,
    savedCost,
  };
}

export function summarize(mode: ReplayMode, replays: readonly SessionReplay[]): ModeSummary {
  const calls = replays.flatMap((replay) => replay.calls);
  const bash = calls.filter((call) => call.tool === 'Bash');
  const byTool: Record<string, Totals> = {};
  for (const tool of [...new Set(calls.map((call) => call.tool))].sort()) byTool[tool] = totals(calls.filter((call) => call.tool === tool));
  const byFamily = Object.fromEntries(FAMILIES.map((family) => [family, totals(bash.filter((call) => call.family === family))])) as Record<Family, Totals>;
  const lines = bash.flatMap((call) => (call.line === null ? [] : [call.line]));
  const declineReasons: Record<string, number> = {};
  for (const line of lines) if (line.outcome === 'declined') declineReasons[reasonKind(line.reason)] = (declineReasons[reasonKind(line.reason)] ?? 0) + 1;
  const decisions: Record<string, number> = {};
  for (const call of bash) if (call.rewritten) decisions[call.decision ?? 'none'] = (decisions[call.decision ?? 'none'] ?? 0) + 1;
  return {
    mode,
    sessions: replays.length,
    billedCost: replays.reduce((sum, replay) => sum + replay.billedCost, 0),
    unpricedRequests: replays.reduce((sum, replay) => sum + replay.unpricedRequests, 0),
    overall: totals(calls),
    byTool,
    byFamily,
    perSession: replays.map((replay) => ({ file: replay.file, version: replay.version, billedCost: replay.billedCost, ...totals(replay.calls) })),
    bash: {
      calls: bash.length,
      failed: bash.filter((call) => call.failed && call.ran).length,
      notRun: bash.filter((call) => !call.ran).length,
      rewritten: bash.filter((call) => call.rewritten).length,
      decisions,
      lineViews: {
        applied: lines.filter((line) => line.outcome === 'view').length,
        unchanged: lines.filter((line) => line.outcome === 'unchanged-view').length,
        declined: lines.filter((line) => line.outcome === 'declined').length,
      },
      declineReasons,
    },
    unrenderable: calls.filter((call) => call.unrenderable).length,
    markers: calls.reduce((sum, call) => sum + call.markers, 0),
    retrievalFailures: calls.reduce((sum, call) => sum + call.retrievalFailures, 0),
    net: netSummary(calls),
  };
}

/** Decline reasons without the command they quote (after the colon), so they group. */
function reasonKind(reason: string): string {
  const colon = reason.indexOf(': ');
  return colon < 0 ? reason : reason.slice(0, colon);
}
