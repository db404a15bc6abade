/**
 * Net accounting (issue 23): a view saves tokens only if the agent does not pay them back. Every retrieval of an
 * original and every re-run of a command is a turn: its output is read, and the request that carries it re-reads the
 * whole prompt prefix (from cache) and writes a reply. In input-token equivalents:
 *
 *   net = saved - retrieved - Σ per turn (0.1 × prefix + 5 × output)
 *
 * 0.1: a cache read costs a tenth of an input token; 5: an output token costs five input tokens (every Claude model
 * priced in src/cost/pricing.ts). Where the prefix and the output of a turn are known (the session replay, cost
 * history: the recorded request next to it) they are used; live stats know neither and use the stated assumptions.
 */

export const CACHE_READ_SHARE = 0.1;
export const OUTPUT_SHARE = 5;

/** For live stats: a turn's prefix and reply as a mid-session Claude Code request has them (README, "Net savings"). */
export const NET_ASSUMPTIONS = { prefixTokens: 20_000, outputTokens: 150 } as const;

export const NET_FORMULA = `net = saved - retrieved - Σ per turn (${CACHE_READ_SHARE} × prefix + ${OUTPUT_SHARE} × output)`;
/** Why, said beside the formula. */
export const NET_WHY =
  'a retrieval or re-run is a turn: it re-reads the prompt prefix from cache (0.1x input) and writes a reply (5x input); in input-token equivalents';

export interface Turn {
  /** Tokens the turn printed into the context (the retrieved original, the re-run's raw output). */
  readonly printedTokens: number;
  /** The prefix its request re-read; the assumption when unknown. */
  readonly prefixTokens?: number | undefined;
  readonly outputTokens?: number | undefined;
}

export interface NetFigure {
  readonly gross: number;
  readonly retrieved: number;
  readonly turns: number;
  /** Σ per turn (0.1 × prefix + 5 × output), rounded. */
  readonly turnCost: number;
  /** May be negative: the views cost more than they saved. */
  readonly net: number;
  readonly formula: string;
}

export function turnCost(turn: Turn): number {
  const prefix = turn.prefixTokens ?? NET_ASSUMPTIONS.prefixTokens;
  const output = turn.outputTokens ?? NET_ASSUMPTIONS.outputTokens;
  return CACHE_READ_SHARE * prefix + OUTPUT_SHARE * output;
}

export function netFigure(gross: number, turns: readonly Turn[]): NetFigure {
  const retrieved = turns.reduce((sum, turn) => sum + turn.printedTokens, 0);
  const cost = Math.round(turns.reduce((sum, turn) => sum + turnCost(turn), 0));
  return { gross, retrieved, turns: turns.length, turnCost: cost, net: gross - retrieved - cost, formula: NET_FORMULA };
}

/** The same figure from totals (live stats: every turn at the assumptions). */
export function netFromTotals(gross: number, turns: number, printedTokens: number): NetFigure {
  const cost = Math.round(turns * turnCost({ printedTokens: 0 }));
  return { gross, retrieved: printedTokens, turns, turnCost: cost, net: gross - printedTokens - cost, formula: NET_FORMULA };
}
