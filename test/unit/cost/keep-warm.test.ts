/** Keep-warm's ski-rental rule (src/cost/keep-warm.ts): when it pings, when it stops, and the 2x bound per gap. */
import { describe, expect, it } from 'vitest';
import { hindsightCost, keepWarmCost, PING_MARGIN_MS, skiRental, type IdleGap } from '../../../src/cost/keep-warm.ts';
import { ONLINE_DEFAULT, onlineDecisions } from '../../../src/cost/online-policy.ts';

const MIN = 60_000;
const TTL = 5 * MIN;
const INTERVAL = TTL - PING_MARGIN_MS;
// A 100k-token prompt at $3/M input: ping = 100k x 0.30/M + one output token at $15/M; re-write = 100k x 3.75/M.
const gap = (idleMin: number, over: Partial<IdleGap> = {}): IdleGap => ({ idleFrom: 0, until: idleMin * MIN, ttlMs: TTL, pingDollars: 0.03 + 15 / 1e6, rewriteDollars: 0.375, ...over });

describe('keep-warm: ski rental over one pause', () => {
  it('a gap the entry survives needs no ping', () => {
    expect(skiRental(gap(4)).pings).toBe(0);
    expect(skiRental(gap(4)).bridged).toBe(true);
  });

  it('a 20-minute pause is bridged by pings every 4.5 minutes, far cheaper than the re-write', () => {
    const out = skiRental(gap(20));
    expect(out.pings).toBe(4);
    expect(out.bridged).toBe(true);
    expect(keepWarmCost(gap(20), out)).toBeLessThan(0.375);
  });

  it('stops once one more ping would exceed one re-write, then pays the re-write: at most 2x hindsight', () => {
    const g = gap(240);
    const out = skiRental(g);
    expect(out.pings).toBe(12);
    expect(out.spent).toBeLessThanOrEqual(g.rewriteDollars);
    expect(out.bridged).toBe(false);
    expect(keepWarmCost(g, out)).toBeLessThanOrEqual(2 * hindsightCost(g));
  });

  it('the configured cap stops it earlier', () => {
    expect(skiRental(gap(240, { capDollars: 0.1 })).pings).toBe(3);
  });

  it('no ping at or after the session end', () => {
    const out = skiRental(gap(60, { endedAt: 7 * MIN }));
    expect(out.pings).toBe(1);
    expect(out.lastRefresh).toBeLessThan(7 * MIN);
  });

  it('no ping later than the idle limit, even with budget left', () => {
    const out = skiRental(gap(Infinity, { idleLimitMs: 15 * MIN }));
    expect(out.pings).toBe(3);
    expect(out.lastRefresh).toBeLessThanOrEqual(15 * MIN);
  });

  it('the next request is a stop: no ping after it', () => {
    expect(skiRental(gap(9)).pings).toBe(Math.floor((9 * MIN - 1) / INTERVAL));
  });
});

describe('online choice between keep-warm and the 1-hour TTL, from the pauses seen so far', () => {
  const rule = { ...ONLINE_DEFAULT, keepWarm: true };
  const at = (gaps: readonly number[]) => gaps.reduce<number[]>((t, g) => [...t, (t.at(-1) ?? 0) + g * MIN], [0]);
  const choice = (gaps: readonly number[]) => onlineDecisions(at(gaps), rule).map((d) => (d.keepWarm ? 'warm' : d.ttl));

  it('no pause: keep-warm (5 minutes) throughout', () => {
    expect(choice([1, 2, 3])).toEqual(['warm', 'warm', 'warm', 'warm']);
  });

  it('one long pause: keep-warm bridges it, the 1-hour TTL from the request after it on', () => {
    expect(choice([1, 40, 1])).toEqual(['warm', 'warm', '1h', '1h']);
  });

  it('many short pauses: 1 hour after the first, never pings again', () => {
    expect(choice([6, 6, 6, 6])).toEqual(['warm', '1h', '1h', '1h', '1h']);
  });
});
