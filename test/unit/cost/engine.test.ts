import { describe, expect, it } from 'vitest';
import { billedCost, geminiBreakEven, providerCacheSaving, savedTokensValue, scenarioSavings } from '../../../src/cost/engine.ts';
import { PRICES, priceFor } from '../../../src/cost/pricing.ts';
import { priceSavings } from '../../../src/cost/savings.ts';
import type { RequestUsage } from '../../../src/transcript/claude-code.ts';

const sonnet = priceFor('claude-sonnet-4-5');
if (sonnet === null) throw new Error('sonnet price missing');

describe('pricing table', () => {
  it('dates every price and keeps Anthropic multipliers (write 1.25x / 2x, read 0.1x)', () => {
    for (const p of PRICES) {
      expect(p.taken).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (p.provider === 'anthropic') expect([p.cacheWrite5m / p.input, p.cacheWrite1h / p.input, p.cacheRead / p.input].map((x) => x.toFixed(2))).toEqual(['1.25', '2.00', '0.10']);
    }
  });

  it.each([
    ['claude-sonnet-4-20250514', 'claude-sonnet-4-20250514'],
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'],
    ['claude-sonnet-4-6', 'claude-sonnet'],
    ['gpt-5-mini-2025-08-07', 'gpt-5-mini'],
    ['deepseek-chat', 'deepseek-chat'],
  ])('prices %s as %s', (model, expected) => {
    expect(priceFor(model)?.model).toBe(expected);
  });

  it('has no price for an unknown model', () => {
    expect(priceFor('llama-3')).toBeNull();
  });

  it('reproduces Claude Code 2.1.332 own cost for claude-opus-5-5 ($0.275064)', () => {
    const opus = priceFor('claude-opus-5-5');
    if (opus === null) throw new Error('missing');
    expect(billedCost({ input: 68036, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 146 }, opus).total).toBeCloseTo(0.275064, 9);
  });
});

describe('cost engine', () => {
  it('bills each category at its own price', () => {
    const cost = billedCost({ input: 1_000_000, cacheRead: 1_000_000, cacheWrite5m: 1_000_000, cacheWrite1h: 1_000_000, output: 1_000_000 }, sonnet);
    expect(cost).toEqual({ input: 3, cacheRead: 0.3, cacheWrite5m: 3.75, cacheWrite1h: 6, output: 15, total: 28.05 });
  });

  it('counts cache writes as negative provider-cache savings', () => {
    expect(providerCacheSaving({ input: 0, cacheRead: 0, cacheWrite5m: 1_000_000, cacheWrite1h: 0, output: 0 }, sonnet)).toBeCloseTo(-0.75);
    expect(providerCacheSaving({ input: 0, cacheRead: 1_000_000, cacheWrite5m: 0, cacheWrite1h: 0, output: 0 }, sonnet)).toBeCloseTo(2.7);
  });

  it('values a removed token at one write plus a cache read per later request, not at the input price', () => {
    expect(savedTokensValue(1_000_000, 0, sonnet)).toBeCloseTo(3.75);
    expect(savedTokensValue(1_000_000, 10, sonnet)).toBeCloseTo(3.75 + 3);
    expect(savedTokensValue(-1_000_000, 0, sonnet)).toBeCloseTo(-3.75);
    const deepseek = priceFor('deepseek-chat');
    if (deepseek === null) throw new Error('missing');
    expect(savedTokensValue(1_000_000, 1, deepseek)).toBeCloseTo(0.28 + 0.028);
  });

  it('answers CAL scenario savings at a hit rate and volume', () => {
    const result = scenarioSavings({ tokensBefore: 23_000, tokensAfter: 5_500, cacheHitRate: 0.85, requestsPerDay: 100 }, sonnet);
    expect(result.reductionPercent).toBeCloseTo(76.09, 1);
    expect(result.blendedInputPrice).toBeCloseTo(0.85 * 0.3 + 0.15 * 3.75);
    expect(result.savedPer30Days).toBeCloseTo(17_500 * result.blendedInputPrice * 100 * 30 / 1e6);
  });

  it('computes Gemini explicit-caching break-even from storage, creation and the per-request saving', () => {
    const pro = priceFor('gemini-2.5-pro');
    if (pro === null) throw new Error('missing');
    const result = geminiBreakEven(100_000, pro);
    // (storage 0.45 + creation 0.125) / (0.1 x (1.25 - 0.125)) per hour
    expect(result.requestsPerHour).toBeCloseTo((0.45 + 0.125) / 0.1125);
    expect(geminiBreakEven(100_000, sonnet).requestsPerHour).toBeNull();
  });
});

describe('priceSavings', () => {
  const request = (session: string, timestamp: string, model = 'claude-opus-4-5'): RequestUsage => ({
    key: `${session}${timestamp}`, requestId: null, messageId: null, session, model, timestamp,
    input: 1, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 1, sidechain: false,
  });

  it('uses the session model and the requests after each record when transcripts cover the session', () => {
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    const requests = [request('s', '2025-12-31T23:59:00Z'), request('s', '2026-01-01T00:01:00Z'), request('s', '2026-01-01T00:02:00Z')];
    const priced = priceSavings([{ ts: t0, session_id: 's', tool: 'Bash', saved_tokens: 1_000_000 }, { ts: t0, session_id: 'other', tool: 'Bash', saved_tokens: 1_000_000 }], requests, { rereads: 1 });
    // opus 4.5: write 6.25 + 2 later reads x 0.5; the other session: sonnet 4.5 assumption, write 3.75 + 1 read x 0.3
    expect(priced.bySession.find((s) => s.key === 's')).toMatchObject({ model: 'claude-opus-4-5', laterRequests: 2 });
    expect(priced.dollars).toBeCloseTo(7.25 + 4.05);
    expect(priced).toMatchObject({ fromTranscripts: 1, assumed: 1, savedTokens: 2_000_000 });
  });
});
