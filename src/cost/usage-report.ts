/**
 * Usage from transcripts, grouped and priced: per session, model and day, with what was billed and what the provider
 * cache saved (counterfactual "every prompt token uncached" minus billed; writes count against it).
 */
import { totalUsage, type RequestUsage, type UsageTotals } from '../transcript/claude-code.ts';
import { CACHE_SAVINGS_FORMULA, billedCost, providerCacheSaving } from './engine.ts';
import { priceFor } from './pricing.ts';

export interface UsageGroup extends UsageTotals {
  readonly key: string;
  /** Dollars billed; null parts are requests whose model has no price (listed in `unpriced`). */
  readonly cost: number;
  readonly cacheSaving: number;
}

export interface UsageReport {
  readonly totals: UsageGroup;
  readonly bySession: UsageGroup[];
  readonly byModel: UsageGroup[];
  readonly byDay: UsageGroup[];
  /** Models seen without a price; their tokens are counted, their dollars are not. */
  readonly unpriced: string[];
  /** The price row used per model: which entry and the date it was taken. */
  readonly prices: { readonly model: string; readonly priced_as: string | null; readonly taken: string | null }[];
  readonly formulas: { readonly billed: string; readonly cacheSaving: string };
}

export function usageReport(requests: readonly RequestUsage[]): UsageReport {
  const models = [...new Set(requests.map((r) => r.model))].sort();
  return {
    totals: group('total', requests),
    bySession: groupBy(requests, (r) => r.session),
    byModel: groupBy(requests, (r) => r.model),
    byDay: groupBy(requests, (r) => r.timestamp.slice(0, 10) || 'unknown').sort((a, b) => (a.key < b.key ? -1 : 1)),
    unpriced: models.filter((m) => priceFor(m) === null),
    prices: models.map((model) => {
      const price = priceFor(model);
      return { model, priced_as: price?.model ?? null, taken: price?.taken ?? null };
    }),
    formulas: {
      billed: 'billed = input x input price + cache_read x read price + write_5m x 5m write price + write_1h x 1h write price + output x output price',
      cacheSaving: CACHE_SAVINGS_FORMULA,
    },
  };
}

/**
 * Dollars billed and saved by the provider cache for some requests, each model's at its own dated price (one session
 * may switch models). Requests of a model without a price are counted in `unpriced`, not in the dollars.
 */
export function pricedTotals(requests: readonly RequestUsage[]): { readonly cost: number; readonly cacheSaving: number; readonly unpriced: number } {
  let cost = 0;
  let cacheSaving = 0;
  let unpriced = 0;
  for (const [model, list] of partition(requests, (r) => r.model)) {
    const price = priceFor(model);
    if (price === null) {
      unpriced += list.length;
      continue;
    }
    const totals = totalUsage(list);
    cost += billedCost(totals, price).total;
    cacheSaving += providerCacheSaving(totals, price);
  }
  return { cost, cacheSaving, unpriced };
}

function group(key: string, requests: readonly RequestUsage[]): UsageGroup {
  const { cost, cacheSaving } = pricedTotals(requests);
  return { key, ...totalUsage(requests), cost, cacheSaving };
}

function groupBy(requests: readonly RequestUsage[], keyOf: (r: RequestUsage) => string): UsageGroup[] {
  return [...partition(requests, keyOf)].map(([key, list]) => group(key, list)).sort((a, b) => b.cost - a.cost || (a.key < b.key ? -1 : 1));
}

function partition<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = map.get(key);
    if (list === undefined) map.set(key, [item]);
    else list.push(item);
  }
  return map;
}
