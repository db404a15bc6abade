/**
 * Keep-warm as a ski-rental rule (issue 27): over a pause, a ping repeating the cached prompt (read at 0.1x plus one
 * output token) refreshes the entry before it expires; the gateway keeps pinging while the pings spent stay within one
 * re-write of that prompt (or the person's cap), then lets it expire. Whatever the pause's length, that costs at most
 * twice what the best choice made with hindsight (ping just enough, or let it expire at once) would have.
 */

/** The prices a ping and a re-write are figured from (per million tokens, ./pricing.ts). */
export interface CachePrices {
  readonly cacheRead: number;
  readonly cacheWrite5m: number;
  readonly cacheWrite1h: number;
  readonly output: number;
}

const HOUR_MS = 60 * 60_000;

/** One ping: the cached prompt read again at the cache-read price, plus the one output token max_tokens allows. */
export function pingDollars(price: CachePrices, cachedTokens: number): number {
  return (cachedTokens * price.cacheRead + price.output) / 1_000_000;
}

/** Writing the cached prompt again once its entry has expired, at the write price of its TTL. */
export function rewriteDollars(price: CachePrices, cachedTokens: number, ttlMs: number): number {
  return (cachedTokens * (ttlMs >= HOUR_MS ? price.cacheWrite1h : price.cacheWrite5m)) / 1_000_000;
}

/** How long before expiry a ping is sent: room for its latency and the clocks. */
export const PING_MARGIN_MS = 30_000;

export interface IdleGap {
  /** When the entry was last used (the previous request). */
  readonly idleFrom: number;
  /** When the next request comes (Infinity: none comes). */
  readonly until: number;
  readonly ttlMs: number;
  /** One ping: the prompt as a cache read plus one output token. */
  readonly pingDollars: number;
  /** Writing the prompt again after it expired. */
  readonly rewriteDollars: number;
  /** The person's cap per pause (dollars); absent: one re-write is the only bound. */
  readonly capDollars?: number;
  /** When the session ended (SessionEnd): no ping at or after it. */
  readonly endedAt?: number;
  /** No ping later than this long after idleFrom, whatever the budget: the person has gone. */
  readonly idleLimitMs?: number;
}

export interface KeepWarmOutcome {
  readonly pings: number;
  readonly spent: number;
  /** The next request still found the entry. */
  readonly bridged: boolean;
  /** The entry's last refresh: the last ping, or idleFrom. */
  readonly lastRefresh: number;
}

/** What decides a pause's pings before it is known how long the pause will be: the gateway's view (src/gateway/keep-warm.ts). */
export type PingBudget = Pick<IdleGap, 'idleFrom' | 'ttlMs' | 'pingDollars' | 'rewriteDollars' | 'capDollars' | 'idleLimitMs'>;

/**
 * The ski-rental rule, one step: when the next ping is due, given the entry's last refresh and what the pause's pings
 * have spent so far; null when the rule lets the entry expire (one more ping would pass the budget, or the idle limit
 * comes first). The simulator (skiRental) and the gateway's pinger both follow it.
 */
export function nextPingAt(budget: PingBudget, lastRefresh: number, spent: number): number | null {
  const interval = budget.ttlMs - PING_MARGIN_MS;
  if (interval <= 0 || !(budget.pingDollars > 0)) return null;
  if (spent + budget.pingDollars > Math.min(budget.rewriteDollars, budget.capDollars ?? Infinity)) return null;
  const due = lastRefresh + interval;
  return due < budget.idleFrom + (budget.idleLimitMs ?? Infinity) ? due : null;
}

/** Pings sent before the next request (and the session's end, and the idle limit) while spent + one more ping stays within the budget. */
export function skiRental(gap: IdleGap): KeepWarmOutcome {
  let pings = 0;
  let spent = 0;
  let last = gap.idleFrom;
  // No ping at or after the next request or the session's end.
  const stop = Math.min(gap.until, gap.endedAt ?? Infinity);
  for (let due = nextPingAt(gap, last, spent); due !== null && due < stop; due = nextPingAt(gap, last, spent)) {
    last = due;
    pings += 1;
    spent += gap.pingDollars;
  }
  return { pings, spent, bridged: gap.until - last <= gap.ttlMs, lastRefresh: last };
}

/** What keep-warm cost over the gap: the pings, plus the re-write when the entry expired anyway. */
export function keepWarmCost(gap: IdleGap, outcome: KeepWarmOutcome): number {
  return outcome.spent + (outcome.bridged || gap.until === Infinity ? 0 : gap.rewriteDollars);
}

/**
 * The best choice with hindsight for a pinger that must ping PING_MARGIN_MS before expiry: no ping when the next request
 * comes within ttl - margin; else the cheaper of just enough pings and a re-write. A gap ending in the last 30 s of the
 * entry counts one ping: with exact timing it would need none, and the rule, which cannot wait for it, pays that ping.
 */
export function hindsightCost(gap: IdleGap): number {
  const idle = gap.until - gap.idleFrom;
  const interval = gap.ttlMs - PING_MARGIN_MS;
  if (idle <= interval || gap.until === Infinity) return 0;
  const needed = Math.max(1, Math.ceil((idle - gap.ttlMs) / interval));
  return Math.min(needed * gap.pingDollars, gap.rewriteDollars);
}
