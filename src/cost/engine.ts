/**
 * Cost and savings math. Pure functions over a `ModelPrice` (dollars per million tokens). Every result carries the
 * formula it used, so reports can show it next to the number.
 */
import type { UsageTotals } from '../transcript/claude-code.ts';
import type { ModelPrice } from './pricing.ts';

const M = 1_000_000;

export interface CostBreakdown {
  readonly input: number;
  readonly cacheRead: number;
  readonly cacheWrite5m: number;
  readonly cacheWrite1h: number;
  readonly output: number;
  readonly total: number;
}

/** What the usage was billed: each category at its own price. */
export function billedCost(usage: Omit<UsageTotals, 'requests'>, price: ModelPrice): CostBreakdown {
  const input = (usage.input * price.input) / M;
  const cacheRead = (usage.cacheRead * price.cacheRead) / M;
  const cacheWrite5m = (usage.cacheWrite5m * price.cacheWrite5m) / M;
  const cacheWrite1h = (usage.cacheWrite1h * price.cacheWrite1h) / M;
  const output = (usage.output * price.output) / M;
  return { input, cacheRead, cacheWrite5m, cacheWrite1h, output, total: input + cacheRead + cacheWrite5m + cacheWrite1h + output };
}

export const CACHE_SAVINGS_FORMULA =
  'provider cache saving = cache_read x (input - cache_read price) - write_5m x (write_5m - input price) - write_1h x (write_1h - input price)';

/**
 * What the provider cache saved against sending every prompt token uncached: counterfactual minus billed.
 * Cache writes cost more than plain input, so they count as negative savings.
 */
export function providerCacheSaving(usage: Omit<UsageTotals, 'requests'>, price: ModelPrice): number {
  return (
    (usage.cacheRead * (price.input - price.cacheRead) -
      usage.cacheWrite5m * (price.cacheWrite5m - price.input) -
      usage.cacheWrite1h * (price.cacheWrite1h - price.input)) /
    M
  );
}

export const SAVED_TOKEN_FORMULA =
  'our saving = saved tokens x (first billing price + later requests x cache_read price); first billing = 5-minute cache write (Anthropic) or input';

/**
 * Dollars not spent because `savedTokens` never entered the prompt. A tool result is billed once when it first enters
 * the context (a cache write where the provider charges one, else plain input) and then once per later request of the
 * session, at the cache-read price: a removed token that would have been a cache read saves the cache-read price.
 * Negative `savedTokens` (an output that grew) gives a negative saving.
 */
export function savedTokensValue(savedTokens: number, laterRequests: number, price: ModelPrice): number {
  return (savedTokens * (price.cacheWrite5m + laterRequests * price.cacheRead)) / M;
}

export interface ScenarioInput {
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Share of prompt tokens read from the cache, 0..1. */
  readonly cacheHitRate: number;
  readonly requestsPerDay: number;
}

export interface ScenarioResult {
  readonly reductionPercent: number;
  /** Blended price per million prompt tokens at the given hit rate. */
  readonly blendedInputPrice: number;
  readonly savedPerRequest: number;
  readonly savedPerDay: number;
  readonly savedPer30Days: number;
  readonly formula: string;
}

/** CAL's question: what a prompt reduction saves at a cache-hit rate and request volume. Misses are billed as writes. */
export function scenarioSavings(input: ScenarioInput, price: ModelPrice): ScenarioResult {
  const blended = input.cacheHitRate * price.cacheRead + (1 - input.cacheHitRate) * price.cacheWrite5m;
  const savedPerRequest = ((input.tokensBefore - input.tokensAfter) * blended) / M;
  const savedPerDay = savedPerRequest * input.requestsPerDay;
  return {
    reductionPercent: input.tokensBefore === 0 ? 0 : ((input.tokensBefore - input.tokensAfter) / input.tokensBefore) * 100,
    blendedInputPrice: blended,
    savedPerRequest,
    savedPerDay,
    savedPer30Days: savedPerDay * 30,
    formula: 'saved/request = (before - after) x (hit rate x cache_read + (1 - hit rate) x first-billing price); /day x requests; /30 days x 30',
  };
}

export interface BreakEven {
  /** Requests per hour at which explicit caching costs the same as sending the prefix uncached; null without storage pricing. */
  readonly requestsPerHour: number | null;
  readonly storagePerHourDollars: number | null;
  readonly savedPerRequestDollars: number;
  readonly formula: string;
}

/**
 * Gemini explicit caching pays storage per hour plus one creation at the input price; each request then saves
 * (input - cached) on the cached tokens. Break-even n per hour: n x input = input + storage + n x cached.
 */
export function geminiBreakEven(cachedTokens: number, price: ModelPrice): BreakEven {
  const savedPerRequest = (cachedTokens * (price.input - price.cacheRead)) / M;
  if (price.storagePerHour === undefined || savedPerRequest <= 0) {
    return { requestsPerHour: null, storagePerHourDollars: null, savedPerRequestDollars: savedPerRequest, formula: 'no storage price for this model' };
  }
  const storage = (cachedTokens * price.storagePerHour) / M;
  const creation = (cachedTokens * price.input) / M;
  return {
    requestsPerHour: (storage + creation) / savedPerRequest,
    storagePerHourDollars: storage,
    savedPerRequestDollars: savedPerRequest,
    formula: 'break-even requests/hour = (storage/hour + creation at input price) / (cached tokens x (input - cached input price))',
  };
}
