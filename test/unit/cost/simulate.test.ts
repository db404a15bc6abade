import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { simulateCache } from '../../../src/cost/cache-sim.ts';
import { priceFor } from '../../../src/cost/pricing.ts';
import { readSimSession } from '../../../src/cost/requests.ts';
import { MAX_VALIDATION_ERROR, reportSession, totalReport } from '../../../src/cost/simulate-report.ts';
import { tokenCounter } from '../../../src/tokens/count.ts';
import { ROOT } from '../../helpers/root.ts';
import { scriptedTranscript as transcript } from '../../helpers/scripted-transcript.ts';

const TRANSCRIPTS = join(ROOT, 'test', 'fixtures', 'transcripts', 'claude-code');
let countTokens: (text: string) => number = () => 0;
beforeAll(async () => {
  countTokens = await tokenCounter();
});

describe('cache simulator on real transcripts', () => {
  it.each([
    ['1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl', 7],
    ['fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl', 170],
  ])('reproduces %s within 5%% of its recorded cache reads and writes', (file, requests) => {
    const session = readSimSession(readFileSync(join(TRANSCRIPTS, file), 'utf8'), file);
    const report = reportSession(session, { countTokens });
    expect(report.requests).toBe(requests);
    expect(report.validation_error).toBeLessThan(MAX_VALIDATION_ERROR);
    expect(report.excluded).toBeNull();
    expect(Math.abs(report.reproduced_cost - report.recorded_cost) / report.recorded_cost).toBeLessThan(0.01);
  });

  it('keeps subagents apart: their requests never read the main session prefix', () => {
    const file = 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl';
    const session = readSimSession(readFileSync(join(TRANSCRIPTS, file), 'utf8'), file);
    const side = session.requests.filter((r) => r.agent === 'side');
    expect(side.length).toBeGreaterThan(0);
    // Parallel subagents started together each found nothing cached, as recorded.
    const simulated = simulateCache(session.requests, new Map([['main', 15_000], ['side', 11_000]]));
    const firstSide = simulated.find((s) => s.request.agent === 'side');
    expect(firstSide?.cacheRead).toBe(0);
    expect(firstSide?.request.usage.cacheRead).toBe(0);
  });
});

describe('cache model', () => {
  it('rewrites the whole prompt after a pause longer than 5 minutes, and reproduces that exactly', () => {
    const text = transcript([
      { seconds: 0, read: 0, write: 20_000 },
      { seconds: 10, read: 20_000, write: 500 },
      { seconds: 610, read: 0, write: 20_600 },
    ]);
    const report = reportSession(readSimSession(text, 't.jsonl'), { countTokens });
    expect(report.validation_error).toBe(0);
    expect(report.pauses_over_5m).toBe(1);
  });

  it('prices the 1-hour stable prefix: 2x write once, then a read instead of a 1.25x rewrite after the pause', () => {
    const text = transcript([
      { seconds: 0, read: 0, write: 20_000 },
      { seconds: 10, read: 20_000, write: 500 },
      { seconds: 610, read: 0, write: 20_600 },
    ]);
    const report = reportSession(readSimSession(text, 't.jsonl'), { countTokens });
    const price = priceFor('claude-sonnet-4-5');
    const stable = report.stable_prefix['main'] ?? 0;
    expect(stable).toBeGreaterThan(19_900);
    if (price === null) throw new Error('no price');
    // Extra on the first write (2x - 1.25x), saved on the rewrite (1.25x - 0.1x).
    const expected = (stable * (price.cacheWrite5m - price.cacheRead) - stable * (price.cacheWrite1h - price.cacheWrite5m)) / 1e6;
    expect(report.savings.ttl_1h_prefix?.dollars).toBeCloseTo(expected, 8);
    // The whole conversation at 1 hour saves more here (its 500 message tokens are read too): the better one goes on.
    expect(report.savings.ttl_1h_all?.dollars).toBeGreaterThan(expected);
    expect(report.hindsight_switched_on).toEqual(['ttl_1h_all']);
    expect(report.switched_on).toEqual(['ttl_online']);
    expect(report.hindsight_cost).toBeLessThan(report.reproduced_cost);
    // Online, the pause is seen only at the last request, which then writes at 1 hour for a pause that never comes:
    // the headline pays that, the hindsight bound does not.
    expect(report.simulated_cost).toBeGreaterThan(report.reproduced_cost);
    expect(report.hindsight_cost).toBeLessThanOrEqual(report.simulated_cost);
  });

  it('switches the prefix to 1 hour after the first pause only: the second pause then reads it', () => {
    const text = transcript([
      { seconds: 0, read: 0, write: 20_000 },
      { seconds: 610, read: 0, write: 20_500 },
      { seconds: 620, read: 20_500, write: 400 },
      { seconds: 1300, read: 0, write: 21_000 },
    ]);
    const session = readSimSession(text, 't.jsonl');
    const report = reportSession(session, { countTokens });
    expect(report.validation_error).toBe(0);
    const stable = report.stable_prefix['main'] ?? 0;
    const simulated = simulateCache(session.requests, new Map([['main', stable]]), { prefixTtl: '1h-after-pause' });
    // Before the first pause nothing changes; at it the prefix is rewritten, now at 1 hour; at the second it is read.
    expect(simulated.map((s) => s.cacheRead)).toEqual([0, 0, 20_500, stable]);
    expect(simulated.map((s) => s.cacheWrite1h)).toEqual([0, stable, 0, 0]);
    const price = priceFor('claude-sonnet-4-5');
    if (price === null) throw new Error('no price');
    const expected = (stable * (price.cacheWrite5m - price.cacheRead) - stable * (price.cacheWrite1h - price.cacheWrite5m)) / 1e6;
    expect(report.savings.ttl_1h_prefix_after_pause?.dollars).toBeCloseTo(expected, 8);
  });

  it('for a client that writes at 1 hour, prices 5-minute writes (1.25x instead of 2x) where no pause needs the hour', () => {
    const text = transcript([
      { seconds: 0, read: 0, write: 0, write1h: 20_000 },
      { seconds: 10, read: 20_000, write: 0, write1h: 500 },
      { seconds: 20, read: 20_500, write: 0, write1h: 400 },
    ]);
    const report = reportSession(readSimSession(text, 't.jsonl'), { countTokens });
    expect(report.validation_error).toBe(0);
    expect(report.write_1h_share).toBe(1);
    const price = priceFor('claude-sonnet-4-5');
    if (price === null) throw new Error('no price');
    expect(report.savings.ttl_5m_all?.dollars).toBeCloseTo((20_900 * (price.cacheWrite1h - price.cacheWrite5m)) / 1e6, 8);
    expect(report.savings.ttl_1h_all?.dollars).toBe(0);
    expect(report.hindsight_switched_on).toEqual(['ttl_5m_all']);
    // No pause: the online rule writes at 5 minutes too, without knowing the session would never pause.
    expect(report.savings.ttl_online?.dollars).toBeCloseTo(report.savings.ttl_5m_all?.dollars ?? NaN, 10);
  });

  it('does not switch the 1-hour TTL on for a session without pauses (it only costs the 2x write)', () => {
    const text = transcript([
      { seconds: 0, read: 0, write: 20_000 },
      { seconds: 10, read: 20_000, write: 500 },
      { seconds: 20, read: 20_500, write: 400 },
    ]);
    const report = reportSession(readSimSession(text, 't.jsonl'), { countTokens });
    expect(report.savings.ttl_1h_prefix?.dollars).toBeLessThan(0);
    expect(report.savings.ttl_1h_prefix_after_pause?.dollars).toBe(0);
    expect(report.hindsight_switched_on).toEqual([]);
    expect(report.savings.ttl_online?.dollars).toBe(0);
    expect(report.simulated_cost).toBeCloseTo(report.reproduced_cost, 10);
  });

  it('prices hook savings on every later request that carries the shortened result', () => {
    const text = transcript([
      { seconds: 0, read: 0, write: 20_000 },
      { seconds: 10, read: 20_000, write: 5_000 },
      { seconds: 20, read: 25_000, write: 400 },
      { seconds: 30, read: 25_400, write: 400 },
    ]);
    const session = readSimSession(text, 't.jsonl');
    const report = reportSession(session, { countTokens, hookSavings: new Map([['toolu_0', 4_000]]) });
    const price = priceFor('claude-sonnet-4-5');
    if (price === null) throw new Error('no price');
    // Written once at 1.25x (request 2), read at 0.1x by requests 3 and 4.
    expect(report.savings.hooks?.dollars).toBeCloseTo((4_000 * (price.cacheWrite5m + 2 * price.cacheRead)) / 1e6, 8);
  });

  it('excludes a session it cannot reproduce, with the reason, and keeps it out of the totals', () => {
    const changed = transcript([
      { seconds: 0, read: 0, write: 20_000 },
      { seconds: 10, read: 0, write: 20_500 },
      { seconds: 20, read: 20_500, write: 400 },
    ]);
    const bad = reportSession(readSimSession(changed, 'bad.jsonl'), { countTokens });
    expect(bad.validation_error).toBeGreaterThan(MAX_VALIDATION_ERROR);
    expect(bad.excluded).toMatch(/the prompt changed inside the \d+-token tools and system prompt/);
    expect(Object.values(bad.savings).every((saving) => saving === null)).toBe(true);
    expect(bad.switched_on).toEqual([]);
    const good = reportSession(readSimSession(transcript([{ seconds: 0, read: 0, write: 20_000 }]), 'good.jsonl'), { countTokens });
    const total = totalReport([good, bad]);
    expect(total.excluded.map((e) => e.file)).toEqual(['bad.jsonl']);
    expect(total.recorded_cost).toBeCloseTo(good.recorded_cost, 10);
  });
});
