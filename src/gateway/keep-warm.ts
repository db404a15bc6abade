/**
 * Keep-warm in the gateway (issue 27, off unless `tokenless gateway --keep-warm`): after a Messages response, the
 * session's last request is sent again with `max_tokens: 1` shortly before its 5-minute cache entry would expire, so
 * the client's next request after a pause reads the cache instead of writing the whole prompt again at 1.25x. The
 * pings follow the simulator's ski-rental rule (src/cost/keep-warm.ts: nextPingAt), priced the same way, so
 * `syt cost simulate`'s `keep_warm` column is what this does.
 *
 * A ping is the request the gateway last forwarded for the session, byte for byte, except `max_tokens` and `stream`,
 * which no cache key includes: the tools, the system prompt, every message and every breakpoint stay as they were.
 * Its answer goes nowhere but the usage log (marked `keep_warm`). Pings stop for a session at its own next request,
 * at SessionEnd (`POST /tokenless/session-end`), at the idle limit, when one more would pass the budget (one re-write,
 * or the person's cap), and at the first failed ping; a 429 or 529 stops every session's pings.
 *
 * The gateway holds the last request of each warm session in memory, its credential headers included, until its pings
 * stop: that is what a ping must repeat.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { NormalisedUsage } from '../context/engines/usage.ts';
import { nextPingAt, pingDollars, rewriteDollars, type PingBudget } from '../cost/keep-warm.ts';
import { priceFor } from '../cost/pricing.ts';
import type { ParsedBody } from './canonical-json.ts';
import { breakpointTtls, sessionKey } from './session-policy.ts';

export interface KeepWarmOptions {
  /** The most one pause's pings may cost, in dollars; absent: one re-write of the prompt is the only bound. */
  readonly capDollars?: number;
  /** No ping later than this after the session's last request: the person has gone. */
  readonly idleLimitMs: number;
  /** How often due pings are looked for (real time; the due times themselves follow `now`). */
  readonly tickMs: number;
}

export const KEEP_WARM_DEFAULTS = { idleLimitMs: 60 * 60_000, tickMs: 1_000 } as const;

/** What one ping sends: the session's last forwarded request with max_tokens 1, to the same path with the same headers. */
export interface Ping {
  readonly key: string;
  readonly sessionId: string | null;
  readonly path: string;
  readonly headers: OutgoingHttpHeaders;
  readonly body: Buffer;
  readonly model: string | null;
}

export interface PingResult {
  /** 0 when no answer came (network error, timeout). */
  readonly status: number;
  readonly usage: NormalisedUsage | null;
}

export type SendPing = (ping: Ping) => Promise<PingResult>;

/** A request the gateway could keep warm, or why it cannot. */
export type Prepared = { readonly ok: true; readonly key: string; readonly pingBody: Buffer; readonly ttlMs: number; readonly model: string | null } | { readonly ok: false; readonly key: string | null; readonly reason: string };

/**
 * The ping for a request about to be forwarded: `parsed` is the forwarded body. Only a body in canonical JSON form
 * (Claude Code's) is re-serialised, so that nothing but the two fields changes; a thinking budget declines, since the
 * API then wants max_tokens above the budget and one ping could cost that many output tokens.
 */
export function preparePing(parsed: ParsedBody | null): Prepared {
  if (parsed === null || !Array.isArray(parsed.document['messages'])) return { ok: false, key: null, reason: 'not a Messages request' };
  const body = parsed.document;
  const key = sessionKey(body);
  if (!parsed.canonical) return { ok: false, key, reason: 'not in canonical JSON form' };
  const thinking = body['thinking'];
  if (typeof thinking === 'object' && thinking !== null && (thinking as { type?: unknown }).type === 'enabled') return { ok: false, key, reason: 'thinking budget' };
  // The first entry to expire sets the pace: 5 minutes unless every breakpoint says 1 hour.
  const ttls = breakpointTtls(body);
  if (ttls.length === 0) return { ok: false, key, reason: 'no cache breakpoint' };
  const ttlMs = Math.min(...ttls);
  const ping = { ...body, max_tokens: 1, stream: false };
  return { ok: true, key, pingBody: Buffer.from(JSON.stringify(ping), 'utf8'), ttlMs, model: typeof body['model'] === 'string' ? body['model'] : null };
}

interface Warm {
  readonly ping: Ping;
  readonly budget: PingBudget;
  lastRefresh: number;
  spent: number;
  due: number;
  inFlight: boolean;
}

/** Sessions kept warm at once; a new one beyond it is not kept warm. */
const MAX_WARM = 64;
/** Ended session ids remembered, so a response that finishes after SessionEnd schedules nothing. */
const MAX_ENDED = 1024;

export class KeepWarm {
  private readonly warm = new Map<string, Warm>();
  private readonly ended = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  private readonly options: KeepWarmOptions;
  private readonly send: SendPing;
  private readonly now: () => number;
  private readonly onPing: (ping: Ping, result: PingResult, sentAt: number) => void;

  /** `onPing` sees every ping's result (the usage log); `now` is the clock due times follow (tests move it). */
  constructor(options: KeepWarmOptions, send: SendPing, now: () => number, onPing: (ping: Ping, result: PingResult, sentAt: number) => void) {
    this.options = options;
    this.send = send;
    this.now = now;
    this.onPing = onPing;
  }

  /** The client's own request for the session: it refreshes the entry itself, so pending pings are dropped. */
  clientRequest(key: string | null): void {
    if (key !== null) this.drop(key);
  }

  /** A response ended: keep the session warm from now, if it answered 200 with a cached prompt and a priced model. */
  responded(prepared: Prepared, sessionId: string | null, path: string, headers: OutgoingHttpHeaders, status: number, usage: NormalisedUsage | null): void {
    if (!prepared.ok || status !== 200 || usage === null) return;
    if (sessionId !== null && this.ended.has(sessionId)) return;
    const cached = usage.cache_read + usage.cache_write;
    const price = prepared.model === null ? null : priceFor(prepared.model);
    if (cached <= 0 || price === null || price.provider !== 'anthropic') return;
    if (!this.warm.has(prepared.key) && this.warm.size >= MAX_WARM) return;
    const now = this.now();
    const budget: PingBudget = {
      idleFrom: now,
      ttlMs: prepared.ttlMs,
      pingDollars: pingDollars(price, cached),
      rewriteDollars: rewriteDollars(price, cached, prepared.ttlMs),
      idleLimitMs: this.options.idleLimitMs,
      ...(this.options.capDollars === undefined ? {} : { capDollars: this.options.capDollars }),
    };
    const due = nextPingAt(budget, now, 0);
    this.drop(prepared.key);
    if (due === null) return;
    this.warm.set(prepared.key, { ping: { key: prepared.key, sessionId, path, headers, body: prepared.pingBody, model: prepared.model }, budget, lastRefresh: now, spent: 0, due, inFlight: false });
    this.timer ??= setInterval(() => this.tick(), this.options.tickMs).unref();
  }

  /** SessionEnd: no ping for the session from now on. */
  endSession(sessionId: string): void {
    this.ended.add(sessionId);
    if (this.ended.size > MAX_ENDED) this.ended.delete(this.ended.values().next().value ?? '');
    for (const [key, state] of this.warm) if (state.ping.sessionId === sessionId) this.drop(key);
  }

  /** Sessions with a ping still to come (tests, the status line). */
  pending(): number {
    return this.warm.size;
  }

  close(): void {
    this.warm.clear();
    this.stopTimer();
  }

  /** Sends every ping that is due; exported through the timer, called directly by tests. */
  tick(): void {
    const now = this.now();
    for (const state of this.warm.values()) {
      if (state.inFlight || state.due > now) continue;
      state.inFlight = true;
      void this.send(state.ping).then(
        (result) => this.settle(state, result, now),
        () => this.settle(state, { status: 0, usage: null }, now),
      );
    }
  }

  private settle(state: Warm, result: PingResult, sentAt: number): void {
    this.onPing(state.ping, result, sentAt);
    // Dropped meanwhile (the client's request came, the session ended): its result changes nothing.
    if (this.warm.get(state.ping.key) !== state) return;
    state.inFlight = false;
    if (result.status === 429 || result.status === 529) {
      // Rate-limited or overloaded: more requests would only add to it, for this session or any other.
      this.close();
      return;
    }
    if (result.status !== 200) return this.drop(state.ping.key);
    state.lastRefresh = sentAt;
    state.spent += state.budget.pingDollars;
    const due = nextPingAt(state.budget, state.lastRefresh, state.spent);
    if (due === null) this.drop(state.ping.key);
    else state.due = due;
  }

  private drop(key: string): void {
    this.warm.delete(key);
    if (this.warm.size === 0) this.stopTimer();
  }

  private stopTimer(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}
