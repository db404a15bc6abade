/**
 * refresh(): whether to send a prewarm now. A prewarm rewrites the cached prefix just before its TTL runs out, so
 * a pause in the conversation does not cost a full cache write at 1.25x. It is throttled: only for engines that
 * offer prewarm, only when the cache is about to expire, and at most `maxPerHour` times (an unthrottled refresher
 * can spend more than it saves: TELOS's R8).
 */
import { CAPABILITIES } from './engines/capabilities.ts';
import type { CachePlan, WireRequest } from './plan.ts';

export interface RefreshState {
  /** When the cached prefix was last written or read (ms since epoch). */
  readonly lastCacheUseAt: number;
  /** Times of recent refreshes (ms since epoch). */
  readonly refreshes: readonly number[];
}

export interface RefreshOptions {
  readonly ttlMs: number;
  /** Refresh when less than this much of the TTL is left. */
  readonly marginMs: number;
  readonly maxPerHour: number;
}

export const REFRESH_DEFAULTS: RefreshOptions = { ttlMs: 5 * 60_000, marginMs: 30_000, maxPerHour: 11 };

export type RefreshDecision = { readonly send: false; readonly reason: string } | { readonly send: true; readonly request: WireRequest };

export function refresh(plan: CachePlan, wire: WireRequest, state: RefreshState, now: number, options: RefreshOptions = REFRESH_DEFAULTS): RefreshDecision {
  if (!CAPABILITIES[plan.engine].prewarm) return { send: false, reason: `${plan.engine} offers no prewarm` };
  const age = now - state.lastCacheUseAt;
  if (age >= options.ttlMs) return { send: false, reason: 'cache already expired: the next real request writes it' };
  if (age < options.ttlMs - options.marginMs) return { send: false, reason: 'cache still fresh' };
  const recent = state.refreshes.filter((at) => now - at < 3_600_000).length;
  if (recent >= options.maxPerHour) return { send: false, reason: `throttled: ${recent} refreshes in the last hour` };
  // The smallest answer the API accepts: the prefix is read (refreshing its TTL), almost nothing is generated.
  return { send: true, request: { headers: wire.headers, body: { ...wire.body, max_tokens: 1, stream: false } } };
}
