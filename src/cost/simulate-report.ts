/**
 * `syt cost simulate` as pure logic: reproduce a session's recorded cache usage, and only when the reproduction is
 * within `MAX_VALIDATION_ERROR` price what each policy would have changed, every figure beside the error it carries.
 */
import type { ToolDefinition } from '../protocol/schemas.ts';
import { simulateCache, ttlPlan, TTL_5M, type CachePolicy, type KeepWarmPolicy, type SimulatedRequest } from './cache-sim.ts';
import { priceFolds, type FoldPricing } from './fold-price.ts';
import { priceTiers, type TierPricing } from './tier-price.ts';
import { ONLINE_DEFAULT, type OnlineRule } from './online-policy.ts';
import { priceFor } from './pricing.ts';
import { insertPause, type SimRequest, type SimSession } from './requests.ts';

export const MAX_VALIDATION_ERROR = 0.05;
const M = 1_000_000;

/**
 * `ttl_1h_prefix` / `ttl_1h_all`: the 1-hour TTL on the tools and system prompt only, or on every breakpoint, for the
 * whole session; `ttl_1h_prefix_after_pause`: the prefix at 1 hour from the first pause over 5 minutes on. For clients
 * that already write at 1 hour, the other way: `ttl_5m_conversation` keeps the prefix at 1 hour and writes the messages
 * at 5 minutes, `ttl_5m_all` writes everything at 5 minutes. `fold_stale`: the gateway's folds of old large tool
 * results on a request that came after the cache expired; `tool_tiers`: the gateway's stubs for tools the session
 * has not used (priced only with a captured tool array: transcripts do not hold one). `ttl_online`: every breakpoint
 * as the online rule (src/cost/online-policy.ts) decides per request from the pauses seen so far: what the headline
 * is priced with. `keep_warm`: every breakpoint at 5 minutes, each pause of the main session bridged by pings while they
 * cost less than one re-write (src/cost/keep-warm.ts), the pings' cost counted.
 */
export const POLICIES = ['hooks', 'fold_stale', 'tool_tiers', 'ttl_1h_prefix', 'ttl_1h_all', 'ttl_1h_prefix_after_pause', 'ttl_5m_conversation', 'ttl_5m_all', 'keep_warm', 'ttl_online'] as const;
const GATEWAY_POLICIES = new Set<string>(['hooks', 'fold_stale', 'tool_tiers']);
export const TTL_POLICIES = POLICIES.filter((name) => !GATEWAY_POLICIES.has(name));
export type PolicyName = (typeof POLICIES)[number];

export interface PolicySaving {
  /** Dollars: simulated cost without the policy minus with it (negative: it would cost more). Null when not priced. */
  readonly dollars: number;
  /** Share of the simulated cost without it. */
  readonly fraction: number;
}

export interface SessionReport {
  readonly file: string;
  readonly requests: number;
  /** The larger of read_error and write_error. */
  readonly validation_error: number;
  /** Sum over requests of |simulated - recorded| cache-read tokens, over the recorded sum. */
  readonly read_error: number;
  /** The same for cache-write tokens (5-minute and 1-hour apart). */
  readonly write_error: number;
  readonly recorded_cost: number;
  /** The simulation without any policy: what is compared with recorded_cost (with --insert-pause: the paused session's). */
  readonly reproduced_cost: number;
  /**
   * The headline: with the hooks, the gateway's folds (its default) and `ttl_online`, each decided per request from
   * what the gateway had seen up to it. No hindsight.
   */
  readonly simulated_cost: number;
  /**
   * An upper bound, never a saving: with the hooks, the folds and, chosen with hindsight, whichever TTL policy saved
   * most in this session (never above simulated_cost: the online one is among the choices).
   */
  readonly hindsight_cost: number;
  /** Stable-prefix size per agent kind (tokens), from each kind's first request. */
  readonly stable_prefix: Readonly<Record<string, number>>;
  /** Share of the recorded cache writes made at the 1-hour TTL (Claude Code 2.1 writes every entry at 1 hour). */
  readonly write_1h_share: number;
  /** Gaps longer than the 5-minute TTL between consecutive requests of the main session. */
  readonly pauses_over_5m: number;
  readonly unpriced_requests: number;
  /** null when the session reproduces within the bound; else why its savings are not claimed. */
  readonly excluded: string | null;
  /** Requests whose recorded read differs from the simulated one by more than `MISMATCH_TOKENS`, largest first (at most 5). */
  readonly mismatches: readonly Mismatch[];
  readonly savings: Readonly<Record<PolicyName, PolicySaving | null>>;
  /** Policies switched on in simulated_cost. */
  readonly switched_on: readonly PolicyName[];
  /** Policies switched on in hindsight_cost. */
  readonly hindsight_switched_on: readonly PolicyName[];
  /** What keep-warm did in the headline (the online rule): counted in simulated_cost. */
  readonly keep_warm: KeepWarmFacts;
  /** What fold_stale did, alone: requests after an expired cache, results folded, folds the agent needed again. */
  readonly fold: { readonly cold_requests: number; readonly folds: number; readonly retrieved: number };
  /** What tool_tiers did, alone; null when no tool array was given. */
  readonly tool_tiers: { readonly stubbed: readonly string[]; readonly called_while_stubbed: readonly string[]; readonly promotions: number } | null;
}

/** Below this a read differs by what the transcript cannot place exactly (a few tokens of formatting per turn). */
const MISMATCH_TOKENS = 50;

export interface Mismatch {
  readonly at: string;
  readonly agent: string;
  readonly recorded_read: number;
  readonly simulated_read: number;
  readonly stable_prefix: number;
}

export interface SimulateOptions {
  readonly countTokens: (text: string) => number;
  /** Tokens the hooks took out of each tool result (by tool_use id); absent: the hooks are not priced. */
  readonly hookSavings?: ReadonlyMap<string, number>;
  /** The client's tool array (from a captured request), to price tool_tiers; absent: tool_tiers is not priced. */
  readonly tools?: readonly ToolDefinition[];
  /**
   * Price the policies on the session with one more pause of this long before its middle request (validation stays
   * on the session as recorded; reproduced_cost and every saving are then the paused session's).
   */
  readonly insertPauseMs?: number;
  /** The online rule the headline follows (default ONLINE_DEFAULT). */
  readonly online?: OnlineRule;
  /** Keep-warm's cap per pause (dollars); absent: one re-write. */
  readonly keepWarmCap?: number;
}

export function reportSession(session: SimSession, options: SimulateOptions): SessionReport {
  const { requests } = session;
  const prefix = stablePrefix(requests, options.countTokens);
  const base = simulateCache(requests, prefix);
  const error = validationError(base);
  // Validated on the session as recorded; priced on it, or on it with one more pause when asked.
  const timeline = options.insertPauseMs === undefined ? session : insertPause(session, options.insertPauseMs);
  const priced = timeline.requests;
  const reproduced = cost(timeline === session ? base : simulateCache(priced, prefix));
  const hooks = options.hookSavings === undefined ? null : removedByRequest(timeline, options.hookSavings);
  const conversationTtl = (policy: CachePolicy) => {
    const plan = ttlPlan(priced, policy);
    return (r: SimRequest) => plan.get(r)?.conversation ?? TTL_5M;
  };
  const foldsUnder = (policy: CachePolicy, withHooks: boolean): FoldPricing =>
    priceFolds(timeline, {
      countTokens: options.countTokens,
      conversationTtl: conversationTtl(policy),
      ...(withHooks && options.hookSavings !== undefined ? { hookSavings: options.hookSavings } : {}),
    });
  const foldAlone = foldsUnder({}, false);
  const plan = ttlPlan(priced);
  const tiers: TierPricing | null =
    options.tools === undefined
      ? null
      : priceTiers(timeline, {
          countTokens: options.countTokens,
          tools: options.tools,
          wholeTtl: (r) => Math.max(plan.get(r)?.prefix ?? TTL_5M, plan.get(r)?.conversation ?? TTL_5M),
        });
  const rule = options.online ?? ONLINE_DEFAULT;
  const keepWarm: KeepWarmPolicy = { price: priceFor, ...(options.keepWarmCap === undefined ? {} : { capDollars: options.keepWarmCap }) };
  const policies: Record<PolicyName, CachePolicy | null> = {
    hooks: hooks === null ? null : { removed: (r) => hooks.get(r) ?? 0 },
    fold_stale: foldPolicy(foldAlone),
    tool_tiers: tiers === null ? null : { prefixRemoved: (r) => tiers.prefixRemoved.get(r) ?? 0, added: (r) => tiers.added.get(r) ?? 0 },
    ttl_1h_prefix: { prefixTtl: '1h' },
    ttl_1h_all: { prefixTtl: '1h', conversationTtl: '1h' },
    ttl_1h_prefix_after_pause: { prefixTtl: '1h-after-pause' },
    ttl_5m_conversation: { prefixTtl: '1h', conversationTtl: '5m' },
    ttl_5m_all: { prefixTtl: '5m', conversationTtl: '5m' },
    keep_warm: { prefixTtl: '5m', conversationTtl: '5m', keepWarm },
    ttl_online: { prefixTtl: 'online', conversationTtl: 'online', online: rule, ...(rule.keepWarm ? { keepWarm } : {}) },
  };
  const savings = {} as Record<PolicyName, PolicySaving | null>;
  // The keep_warm policy's own run: what `keep_warm` (pings, gaps, tail) reports below.
  let keepWarmRun: SimulatedRequest[] = [];
  for (const name of POLICIES) {
    const policy = policies[name];
    if (policy === null) {
      savings[name] = null;
      continue;
    }
    const simulated = simulateCache(priced, prefix, policy);
    if (name === 'keep_warm') keepWarmRun = simulated;
    const dollars = reproduced.dollars - cost(simulated).dollars;
    savings[name] = { dollars, fraction: reproduced.dollars === 0 ? 0 : dollars / reproduced.dollars };
  }
  // The gateway's folds are on by default (POLICY_DEFAULTS): priced under the TTL chosen, on top of the hooks.
  const withTtl = (name: PolicyName | undefined): { cost: number; on: PolicyName[]; simulated: SimulatedRequest[] } => {
    const ttlPolicy: CachePolicy = name === undefined ? {} : (policies[name] ?? {});
    const folds = foldsUnder(ttlPolicy, true);
    const combined: CachePolicy = {
      ...ttlPolicy,
      removed: (r: SimRequest) => (hooks?.get(r) ?? 0) + (folds.removed.get(r) ?? 0),
      added: (r: SimRequest) => folds.added.get(r) ?? 0,
    };
    const on: PolicyName[] = [...(hooks === null ? [] : (['hooks'] as const)), ...(folds.folds > 0 ? (['fold_stale'] as const) : []), ...(name === undefined ? [] : [name])];
    const simulated = simulateCache(priced, prefix, combined);
    return { cost: cost(simulated).dollars, on, simulated };
  };
  // The headline: the online rule, decided per request from what the gateway had seen; no choice made per session.
  const online = withTtl('ttl_online');
  // The bound: per session, the TTL policy that saved most there alone (hindsight, which no gateway has); the online
  // result is one of the choices, so the bound is never below the headline.
  const best = TTL_POLICIES
    .filter((name) => (savings[name]?.dollars ?? 0) > 0)
    .sort((a, b) => (savings[b]?.dollars ?? 0) - (savings[a]?.dollars ?? 0))[0];
  const picked = best === 'ttl_online' ? online : withTtl(best);
  const hindsight = picked.cost <= online.cost ? picked : online;
  const recorded = recordedCost(requests);
  const validation = Math.max(error.read, error.write);
  const misses = mismatches(base, prefix);
  const excluded = requests.length === 0 ? 'no billed requests' : validation > MAX_VALIDATION_ERROR ? whyNot(validation, misses) : null;
  // A session the simulator does not reproduce claims nothing: no saving, no policy on.
  const claimed = excluded === null;
  return {
    file: session.file,
    requests: requests.length,
    validation_error: validation,
    read_error: error.read,
    write_error: error.write,
    recorded_cost: recorded,
    reproduced_cost: reproduced.dollars,
    simulated_cost: claimed ? online.cost : reproduced.dollars,
    hindsight_cost: claimed ? hindsight.cost : reproduced.dollars,
    stable_prefix: Object.fromEntries(prefix),
    write_1h_share: share1h(requests),
    pauses_over_5m: pauses(priced),
    unpriced_requests: reproduced.unpriced,
    excluded,
    mismatches: misses.slice(0, 5),
    savings: claimed ? savings : (Object.fromEntries(POLICIES.map((name) => [name, null])) as Record<PolicyName, null>),
    switched_on: claimed ? online.on : [],
    hindsight_switched_on: claimed ? hindsight.on : [],
    keep_warm: keepWarmFacts(keepWarmRun),
    fold: { cold_requests: foldAlone.coldRequests, folds: foldAlone.folds, retrieved: foldAlone.retrieved },
    tool_tiers: tiers === null ? null : { stubbed: tiers.stubbed, called_while_stubbed: tiers.calledWhileStubbed, promotions: tiers.promotions },
  };
}

export interface KeepWarmFacts {
  /** Gaps of the main session it pinged over, and of them the ones the next request found warm. */
  readonly gaps: number;
  readonly bridged: number;
  readonly pings: number;
  /** Pings plus the re-writes after gaps it did not bridge. */
  readonly dollars: number;
  /** Of those, the pings after the session's last request (its end is not recorded: all counted). */
  readonly tail_dollars: number;
  /** The best per-gap choice with hindsight: the competitive bound is dollars - tail_dollars <= 2 x this. */
  readonly hindsight_dollars: number;
}

function keepWarmFacts(simulated: readonly SimulatedRequest[]): KeepWarmFacts {
  const gaps = simulated.flatMap((s) => s.keepWarm ?? []);
  const sum = (of: typeof gaps, pick: (g: (typeof gaps)[number]) => number) => of.reduce((n, g) => n + pick(g), 0);
  return {
    gaps: gaps.length,
    bridged: gaps.filter((g) => g.bridged).length,
    pings: sum(gaps, (g) => g.pings),
    dollars: sum(gaps, (g) => g.dollars),
    tail_dollars: sum(gaps.filter((g) => g.tail), (g) => g.dollars),
    hindsight_dollars: sum(gaps, (g) => g.hindsight),
  };
}

function foldPolicy(folds: FoldPricing): CachePolicy {
  return { removed: (r) => folds.removed.get(r) ?? 0, added: (r) => folds.added.get(r) ?? 0 };
}

export interface SimulateReport {
  readonly sessions: readonly SessionReport[];
  /** Over the sessions not excluded: the largest error, and their summed costs. */
  readonly validation_error: number;
  readonly recorded_cost: number;
  readonly reproduced_cost: number;
  /** The online headline; hindsight_cost is the bound, never summed into it. */
  readonly simulated_cost: number;
  readonly hindsight_cost: number;
  readonly excluded: readonly { readonly file: string; readonly reason: string }[];
}

export function totalReport(sessions: readonly SessionReport[]): SimulateReport {
  const kept = sessions.filter((s) => s.excluded === null);
  const sum = (pick: (s: SessionReport) => number) => kept.reduce((total, s) => total + pick(s), 0);
  return {
    sessions,
    validation_error: kept.reduce((worst, s) => Math.max(worst, s.validation_error), 0),
    recorded_cost: sum((s) => s.recorded_cost),
    reproduced_cost: sum((s) => s.reproduced_cost),
    simulated_cost: sum((s) => s.simulated_cost),
    hindsight_cost: sum((s) => s.hindsight_cost),
    excluded: sessions.flatMap((s) => (s.excluded === null ? [] : [{ file: s.file, reason: s.excluded }])),
  };
}

/**
 * The part of the prompt the transcript does not hold (tools and system prompt), per agent kind: its first request's
 * cacheable tokens minus the messages that request carried (o200k, which counts close to Anthropic's tokenizer on
 * prose; the error this leaves shows up in the validation).
 */
function stablePrefix(requests: readonly SimRequest[], countTokens: (text: string) => number): Map<string, number> {
  const prefix = new Map<string, number>();
  for (const r of requests) {
    if (prefix.has(r.agent)) continue;
    prefix.set(r.agent, Math.max(0, r.cacheable - countTokens(r.chainText())));
  }
  return prefix;
}

function removedByRequest(session: SimSession, saved: ReadonlyMap<string, number>): Map<SimRequest, number> {
  const byResult = new Map<string, number>();
  for (const call of session.calls) {
    const tokens = saved.get(call.toolUseId);
    if (tokens !== undefined) byResult.set(call.resultUuid, (byResult.get(call.resultUuid) ?? 0) + tokens);
  }
  const removed = new Map<SimRequest, number>();
  for (const r of session.requests) {
    let total = 0;
    for (const [uuid, tokens] of byResult) if (r.chain.has(uuid)) total += tokens;
    if (total !== 0) removed.set(r, total);
  }
  return removed;
}

function mismatches(simulated: readonly SimulatedRequest[], prefix: ReadonlyMap<string, number>): Mismatch[] {
  return simulated
    .filter((s) => Math.abs(s.cacheRead - s.request.usage.cacheRead) > MISMATCH_TOKENS)
    .sort((a, b) => Math.abs(b.cacheRead - b.request.usage.cacheRead) - Math.abs(a.cacheRead - a.request.usage.cacheRead))
    .map((s) => ({
      at: new Date(s.request.sentAt).toISOString(),
      agent: s.request.agent,
      recorded_read: s.request.usage.cacheRead,
      simulated_read: s.cacheRead,
      stable_prefix: prefix.get(s.request.agent) ?? 0,
    }));
}

/**
 * Why a session is not reproduced, from its largest mismatch: a recorded read shorter than the simulated hit means the
 * prompt changed where the transcript does not show it (tools or system prompt when the read ends inside the stable
 * prefix); a longer one means a cache entry the transcript holds no request for (another session's, or missing turns).
 */
function whyNot(validation: number, misses: readonly Mismatch[]): string {
  const bound = `reproduced only within ${(validation * 100).toFixed(1)}% (bound ${MAX_VALIDATION_ERROR * 100}%)`;
  const worst = misses[0];
  if (worst === undefined) return bound;
  const where = `at ${worst.at} the client read ${worst.recorded_read} tokens where the simulation read ${worst.simulated_read}`;
  if (worst.recorded_read < worst.simulated_read) {
    const part = worst.recorded_read < worst.stable_prefix ? `inside the ${worst.stable_prefix}-token tools and system prompt` : 'in the messages';
    return `${bound}: ${where}: the prompt changed ${part}, which the transcript does not record`;
  }
  return `${bound}: ${where}: a cache entry no request of this transcript wrote (another session's, or turns missing from the file)`;
}

function validationError(simulated: readonly SimulatedRequest[]): { read: number; write: number } {
  let readDiff = 0;
  let writeDiff = 0;
  let read = 0;
  let write = 0;
  for (const s of simulated) {
    const u = s.request.usage;
    readDiff += Math.abs(s.cacheRead - u.cacheRead);
    writeDiff += Math.abs(s.cacheWrite5m - u.cacheWrite5m) + Math.abs(s.cacheWrite1h - u.cacheWrite1h);
    read += u.cacheRead;
    write += u.cacheWrite5m + u.cacheWrite1h;
  }
  return { read: read === 0 ? (readDiff === 0 ? 0 : 1) : readDiff / read, write: write === 0 ? (writeDiff === 0 ? 0 : 1) : writeDiff / write };
}

function dollars(model: string, t: { input: number; cacheRead: number; cacheWrite5m: number; cacheWrite1h: number; output: number }): number | null {
  const p = priceFor(model);
  if (p === null) return null;
  return (t.input * p.input + t.cacheRead * p.cacheRead + t.cacheWrite5m * p.cacheWrite5m + t.cacheWrite1h * p.cacheWrite1h + t.output * p.output) / M;
}

function cost(simulated: readonly SimulatedRequest[]): { dollars: number; unpriced: number } {
  let total = 0;
  let unpriced = 0;
  for (const s of simulated) {
    const d = dollars(s.request.usage.model, { ...s, cacheRead: s.cacheRead + (s.pingRead ?? 0), output: s.output + (s.pingOutput ?? 0) });
    if (d === null) unpriced += 1;
    else total += d;
  }
  return { dollars: total, unpriced };
}

function recordedCost(requests: readonly SimRequest[]): number {
  return requests.reduce((total, r) => total + (dollars(r.usage.model, r.usage) ?? 0), 0);
}

function share1h(requests: readonly SimRequest[]): number {
  let h1 = 0;
  let all = 0;
  for (const { usage } of requests) {
    h1 += usage.cacheWrite1h;
    all += usage.cacheWrite1h + usage.cacheWrite5m;
  }
  return all === 0 ? 0 : h1 / all;
}

function pauses(requests: readonly SimRequest[]): number {
  let count = 0;
  let last: number | null = null;
  for (const r of requests) {
    if (r.agent !== 'main') continue;
    if (last !== null && r.sentAt - last > TTL_5M) count += 1;
    last = r.sentAt;
  }
  return count;
}
