/**
 * Anthropic's prompt cache, request by request, as documented
 * (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching): a request reads the longest cached prefix that
 * ends at one of its breakpoints and writes the rest up to its last breakpoint; an entry lives 5 minutes (or 1 hour, at
 * 2x the input price instead of 1.25x) from its last use, each hit refreshing it; prompts under a model's minimum
 * cacheable length are not cached at all.
 *
 * Claude Code sets two breakpoints that matter here (FINDINGS.md §6): one after the system prompt (tools and system:
 * the stable prefix, whose size the transcript does not hold) and one on the last message block. So each request
 * leaves two entries: the stable prefix of its agent kind, and its whole prompt under its chain's newest line, which is
 * a prefix of every later request whose chain holds that line.
 */
import { hindsightCost, keepWarmCost, pingDollars, rewriteDollars, skiRental, type CachePrices, type IdleGap } from './keep-warm.ts';
import { decide, type OnlineRule } from './online-policy.ts';
import type { SimRequest } from './requests.ts';

const MINUTE = 60_000;
export const TTL_5M = 5 * MINUTE;
export const TTL_1H = 60 * MINUTE;

/**
 * `recorded`: as the client set it; `1h`: always 1 hour; `1h-after-pause`: 1 hour from the first request of the agent
 * kind that arrives after a pause longer than 5 minutes (a gateway sees that pause when the request comes in, so this
 * one needs no hindsight); `5m`: always 5 minutes (Claude Code 2.1 writes every entry at 1 hour, 2x the input price);
 * `online`: what the policy's `online` rule decides from the pauses its agent kind has shown so far.
 */
export type Ttl = 'recorded' | '1h' | '1h-after-pause' | '5m' | 'online';

export interface CachePolicy {
  /** Tokens a request's prompt no longer carries (the hooks' savings on the tool results in its chain). */
  readonly removed?: (request: SimRequest) => number;
  /** Tokens a request's prompt carries on top of the recorded one (a folded result or a tool definition retrieved). */
  readonly added?: (request: SimRequest) => number;
  /**
   * Tokens the stable prefix (tools and system prompt) no longer carries: the gateway's tool stubs. A request whose
   * count differs from the previous one's has a different prefix, so nothing cached at another count matches it.
   */
  readonly prefixRemoved?: (request: SimRequest) => number;
  /** TTL of the stable-prefix breakpoint: as the client set it, or 1 hour. */
  readonly prefixTtl?: Ttl;
  /** TTL of the last-message breakpoint. */
  readonly conversationTtl?: Ttl;
  /** The rule an `online` TTL follows. */
  readonly online?: OnlineRule;
  /** Keep the main session's prompt warm over each pause (src/cost/keep-warm.ts), priced per million tokens. */
  readonly keepWarm?: KeepWarmPolicy;
}

export interface KeepWarmPolicy {
  readonly price: (model: string) => CachePrices | null;
  readonly capDollars?: number;
}

/** One idle gap keep-warm handled: what it spent, what the best hindsight choice would have, and whether it bridged. */
export interface KeepWarmGap {
  readonly pings: number;
  readonly dollars: number;
  readonly hindsight: number;
  readonly bridged: boolean;
  /** After the session's last request: the session's end is not in the transcript, so every ping is counted. */
  readonly tail: boolean;
}

export interface SimulatedRequest {
  readonly request: SimRequest;
  readonly input: number;
  readonly cacheRead: number;
  readonly cacheWrite5m: number;
  readonly cacheWrite1h: number;
  readonly output: number;
  /** Keep-warm pings sent over the gap before this request (or after it, for the session's last): tokens read, output. */
  readonly pingRead?: number;
  readonly pingOutput?: number;
  readonly keepWarm?: readonly KeepWarmGap[];
}

interface Entry {
  readonly agent: string;
  /** null: the stable prefix, shared by every request of the agent kind. */
  readonly node: string | null;
  readonly pos: number;
  /** The prefixRemoved the entry was written with: an entry of another prefix is no prefix of this request. */
  readonly variant: number;
  readonly ttl: number;
  /** An entry exists once its request has been processed: a request sent before that cannot hit it. */
  readonly availableAt: number;
  lastUse: number;
}

/** Minimum cacheable prompt length by model family (tokens), from the prompt-caching documentation. */
export function minCacheable(model: string): number {
  if (/haiku-4-5|opus-4-5/.test(model)) return 4096;
  if (/haiku/.test(model)) return 2048;
  return 1024;
}

/** Each request's TTLs (ms) under `policy`, in the order the requests were sent. */
export function ttlPlan(requests: readonly SimRequest[], policy: CachePolicy = {}): Map<SimRequest, { readonly prefix: number; readonly conversation: number }> {
  const defaults = defaultTtls(requests);
  const lastSent = new Map<string, number>();
  const paused = new Map<string, number>();
  const plan = new Map<SimRequest, { prefix: number; conversation: number }>();
  for (const request of requests) {
    const { usage, agent, sentAt } = request;
    const recordedTtl = usage.cacheWrite1h > usage.cacheWrite5m ? TTL_1H : usage.cacheWrite5m > 0 ? TTL_5M : (defaults.get(agent) ?? TTL_5M);
    const previous = lastSent.get(agent);
    if (previous !== undefined && sentAt - previous > TTL_5M) paused.set(agent, (paused.get(agent) ?? 0) + 1);
    lastSent.set(agent, sentAt);
    const seen = paused.get(agent) ?? 0;
    const pick = (ttl: Ttl | undefined) => {
      if (ttl === 'online' && policy.online !== undefined) return decide(seen, policy.online).ttl === '1h' ? TTL_1H : TTL_5M;
      return ttl === '5m' ? TTL_5M : ttl === '1h' || (ttl === '1h-after-pause' && seen > 0) ? TTL_1H : recordedTtl;
    };
    plan.set(request, { prefix: pick(policy.prefixTtl), conversation: pick(policy.conversationTtl) });
  }
  return plan;
}

/** Each request's prompt as the cache saw it under `policy`; `prefix` is the stable-prefix size per agent kind. */
export function simulateCache(requests: readonly SimRequest[], prefix: ReadonlyMap<string, number>, policy: CachePolicy = {}): SimulatedRequest[] {
  const ttls = ttlPlan(requests, policy);
  let entries: Entry[] = [];
  const seeded = new Set<string>();
  const out: SimulatedRequest[] = [];
  // The main session's last cached prompt: what a keep-warm ping repeats.
  let warm: { request: SimRequest; cacheable: number; ttl: number; variant: number } | null = null;
  const ping = (until: number): { read: number; output: number; gap: KeepWarmGap } | null => {
    const price = warm === null ? null : policy.keepWarm?.price(warm.request.usage.model);
    if (warm === null || price === null || price === undefined) return null;
    // Under the online rule a 1-hour entry means decide() chose the 1-hour TTL over pings (src/cost/online-policy.ts).
    if (policy.prefixTtl === 'online' && warm.ttl === TTL_1H) return null;
    const last = warm;
    const gap: IdleGap = {
      idleFrom: last.request.sentAt,
      until,
      ttlMs: last.ttl,
      pingDollars: pingDollars(price, last.cacheable),
      rewriteDollars: rewriteDollars(price, last.cacheable, last.ttl),
      ...(policy.keepWarm?.capDollars === undefined ? {} : { capDollars: policy.keepWarm.capDollars }),
    };
    const outcome = skiRental(gap);
    if (outcome.pings === 0) return null;
    // A ping is the last request's prompt again: it refreshes every entry that request read or wrote.
    for (const e of entries) {
      if (e.agent === last.request.agent && e.variant === last.variant && e.pos <= last.cacheable && (e.node === null || last.request.chain.has(e.node))) e.lastUse = Math.max(e.lastUse, outcome.lastRefresh);
    }
    return {
      read: outcome.pings * last.cacheable,
      output: outcome.pings,
      gap: { pings: outcome.pings, dollars: keepWarmCost(gap, outcome), hindsight: hindsightCost(gap), bridged: outcome.bridged && until !== Infinity, tail: until === Infinity },
    };
  };
  for (const request of requests) {
    const { usage, agent, sentAt } = request;
    const pinged = policy.keepWarm !== undefined && agent === 'main' ? ping(sentAt) : null;
    const pingFields = pinged === null ? {} : { pingRead: pinged.read, pingOutput: pinged.output, keepWarm: [pinged.gap] };
    const removed = Math.max(0, policy.removed?.(request) ?? 0);
    const prefixRemoved = Math.max(0, policy.prefixRemoved?.(request) ?? 0);
    const added = Math.max(0, policy.added?.(request) ?? 0);
    const cacheable = Math.max(0, request.cacheable - removed - prefixRemoved + added);
    const stable = Math.min(Math.max(0, (prefix.get(agent) ?? 0) - prefixRemoved), cacheable);
    const { prefix: prefixTtl, conversation: conversationTtl } = ttls.get(request) ?? { prefix: TTL_5M, conversation: TTL_5M };
    if (!seeded.has(agent)) {
      // What was cached before the transcript began (another session's identical prefix) is unknowable from it: the
      // agent kind's first request says how much it found, and that is taken as given (unless the policy changed
      // the prefix itself: then nothing another session cached matches it).
      seeded.add(agent);
      if (usage.cacheRead > 0 && prefixRemoved === 0) {
        const pos = usage.cacheRead > stable ? Math.max(0, usage.cacheRead - removed) : usage.cacheRead;
        entries.push({ agent, node: null, pos, variant: 0, ttl: TTL_5M, availableAt: -Infinity, lastUse: sentAt });
      }
    }
    entries = entries.filter((e) => sentAt - e.lastUse <= e.ttl);
    if (cacheable < minCacheable(usage.model)) {
      out.push({ request, input: usage.input + cacheable, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: usage.output, ...pingFields });
      if (agent === 'main') warm = null;
      continue;
    }
    const hits = entries.filter((e) => e.agent === agent && e.variant === prefixRemoved && e.availableAt <= sentAt && e.pos <= cacheable && (e.node === null || request.chain.has(e.node)));
    const read = hits.reduce((best, e) => Math.max(best, e.pos), 0);
    for (const e of hits) if (e.pos <= read) e.lastUse = sentAt;
    const prefixWrite = Math.max(0, stable - read);
    const conversationWrite = cacheable - read - prefixWrite;
    let write5m = 0;
    let write1h = 0;
    if (prefixTtl === TTL_1H) write1h += prefixWrite;
    else write5m += prefixWrite;
    if (conversationTtl === TTL_1H) write1h += conversationWrite;
    else write5m += conversationWrite;
    const availableAt = request.answeredAt;
    if (!hits.some((e) => e.node === null && e.pos === stable)) entries.push({ agent, node: null, pos: stable, variant: prefixRemoved, ttl: prefixTtl, availableAt, lastUse: sentAt });
    if (request.head !== null && !hits.some((e) => e.node === request.head && e.pos === cacheable)) {
      entries.push({ agent, node: request.head, pos: cacheable, variant: prefixRemoved, ttl: conversationTtl, availableAt, lastUse: sentAt });
    }
    out.push({ request, input: usage.input, cacheRead: read, cacheWrite5m: write5m, cacheWrite1h: write1h, output: usage.output, ...pingFields });
    if (agent === 'main') warm = { request, cacheable, ttl: Math.min(prefixTtl, conversationTtl), variant: prefixRemoved };
  }
  // After the last request the gateway keeps pinging until the budget is spent, unless the session ends first: the
  // transcript does not say when it did, so the whole budget is counted.
  const tail = policy.keepWarm !== undefined ? ping(Infinity) : null;
  const lastMain = out.findLastIndex((s) => s.request.agent === 'main');
  const at = out[lastMain];
  if (tail !== null && at !== undefined) {
    out[lastMain] = { ...at, pingRead: (at.pingRead ?? 0) + tail.read, pingOutput: (at.pingOutput ?? 0) + tail.output, keepWarm: [...(at.keepWarm ?? []), tail.gap] };
  }
  return out;
}

/** Per agent kind, the TTL most of its written tokens had: the client's setting for a request that wrote nothing. */
function defaultTtls(requests: readonly SimRequest[]): Map<string, number> {
  const written = new Map<string, { m5: number; h1: number }>();
  for (const { agent, usage } of requests) {
    const w = written.get(agent) ?? { m5: 0, h1: 0 };
    written.set(agent, { m5: w.m5 + usage.cacheWrite5m, h1: w.h1 + usage.cacheWrite1h });
  }
  return new Map([...written].map(([agent, w]) => [agent, w.h1 > w.m5 ? TTL_1H : TTL_5M]));
}
