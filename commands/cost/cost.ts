/** `syt cost`: our saved tokens in dollars, CAL's scenario savings, and Gemini explicit-caching break-even. */
import * as z from 'zod/mini';
import { loadConfig } from '../../src/config/config.ts';
import { geminiBreakEven, scenarioSavings } from '../../src/cost/engine.ts';
import { DEFAULT_MODEL, PRICES, priceFor, type ModelPrice } from '../../src/cost/pricing.ts';
import { priceSavings } from '../../src/cost/savings.ts';
import { DEFAULT_LIMIT, emptyTotals, savingRows, summarize, type SavingRow } from '../../src/store/stats-query.ts';
import { usageError } from '../shared/errors.ts';
import { parseOptions } from '../shared/options.ts';
import { decimal, digits, int, parseSince, readStats, signed, toInt, usd, writeJson } from '../shared/stats-common.ts';
import { loadUsageFrom } from '../shared/usage-source.ts';

const Options = z.object({
  model: z.optional(z.string()),
  rereads: z.optional(digits),
  cacheHitRate: z.optional(decimal),
  requestsPerDay: z.optional(digits),
  tokensBefore: z.optional(digits),
  tokensAfter: z.optional(digits),
  geminiModel: z.optional(z.string()),
  cachedTokens: z.optional(digits),
  log: z.optional(z.string()),
  claudeDir: z.optional(z.string()),
  since: z.optional(z.string()),
  limit: z.optional(digits),
  json: z.optional(z.boolean()),
});

export async function costCommand(raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, 'cost');
  const config = loadConfig();
  const model = options.model ?? DEFAULT_MODEL;
  const price = requirePrice(model, '--model');
  const gemini = requirePrice(options.geminiModel ?? 'gemini-2.5-pro', '--gemini-model');
  const hitRate = Number(options.cacheHitRate ?? '0.85');
  if (hitRate > 1) throw usageError(`tokenless cost: --cache-hit-rate ${JSON.stringify(options.cacheHitRate)}: expected a share between 0 and 1`);
  const limit = toInt(options.limit, DEFAULT_LIMIT);
  const since = parseSince(options.since, Date.now(), 'cost') ?? 0;
  const { rows, totals } = readStats(config.dataDir, { rows: [] as SavingRow[], totals: emptyTotals() }, (db) => ({
    rows: savingRows(db, limit, since),
    totals: summarize(db, { limit, since }).totals,
  }));
  const usage = loadUsageFrom(options, config.dataDir, false);
  const ours = priceSavings(rows, usage.requests, { model, rereads: toInt(options.rereads, 0) });
  const perRecord = (n: number) => (totals.records === 0 ? 0 : Math.round(n / totals.records));
  const scenarioInput = {
    tokensBefore: toInt(options.tokensBefore, perRecord(totals.beforeTokens)),
    tokensAfter: toInt(options.tokensAfter, perRecord(totals.afterTokens)),
    cacheHitRate: hitRate,
    requestsPerDay: toInt(options.requestsPerDay, 100),
  };
  const scenario = scenarioSavings(scenarioInput, price);
  const breakEven = geminiBreakEven(toInt(options.cachedTokens, 100_000), gemini);
  const report = {
    ours,
    scenario: { model, ...scenarioInput, ...scenario },
    gemini_break_even: { model: gemini.model, cached_tokens: toInt(options.cachedTokens, 100_000), ...breakEven },
    prices: [price, gemini],
    transcripts: { source: usage.source, files: usage.files, requests: usage.requests.length },
  };
  if (options.json === true) return writeJson(report);
  const { renderStatsReport } = await import('../ui/StatsTable.tsx');
  process.stdout.write(
    renderStatsReport({
      header: [
        `our operations saved ${signed(ours.savedTokens)} tokens = ${usd(ours.dollars)} (${ours.fromTranscripts} record(s) priced from transcripts, ${ours.assumed} with assumptions: ${ours.assumptions.model}, ${ours.assumptions.rereads} later request(s))`,
        `scenario (${model}): ${int(scenarioInput.tokensBefore)} -> ${int(scenarioInput.tokensAfter)} tokens per request (${scenario.reductionPercent.toFixed(1)}%), cache hit rate ${scenarioInput.cacheHitRate}, ${int(scenarioInput.requestsPerDay)} requests/day: ${usd(scenario.savedPerRequest)}/request, ${usd(scenario.savedPerDay)}/day, ${usd(scenario.savedPer30Days)}/30 days`,
        breakEven.requestsPerHour === null
          ? `gemini explicit caching (${gemini.model}): ${breakEven.formula}`
          : `gemini explicit caching (${gemini.model}, ${int(report.gemini_break_even.cached_tokens)} cached tokens): break-even at ${breakEven.requestsPerHour.toFixed(2)} requests/hour (storage ${usd(breakEven.storagePerHourDollars ?? 0)}/hour, saves ${usd(breakEven.savedPerRequestDollars)}/request)`,
      ],
      sections: [
        {
          title: 'our savings by session',
          columns: [
            { header: 'session', align: 'left', max: 40 },
            { header: 'model', align: 'left' },
            { header: 'saved tokens', align: 'right' },
            { header: 'dollars', align: 'right' },
          ],
          rows: ours.bySession.map((s) => [s.key, s.model, signed(s.savedTokens), usd(s.dollars)]),
          empty: 'no applied records',
        },
        {
          title: 'our savings by tool',
          columns: [
            { header: 'tool', align: 'left', max: 40 },
            { header: 'saved tokens', align: 'right' },
            { header: 'dollars', align: 'right' },
          ],
          rows: ours.byTool.map((s) => [s.key, signed(s.savedTokens), usd(s.dollars)]),
          empty: 'no applied records',
        },
      ],
      notes: [ours.formula, scenario.formula, breakEven.formula, ...[price, gemini].map(priceNote)],
    }),
  );
}

function requirePrice(model: string, option: string): ModelPrice {
  const price = priceFor(model);
  if (price === null) throw usageError(`tokenless cost: ${option} ${model} has no price; known models: ${PRICES.map((p) => p.model).join(', ')}`);
  return price;
}

function priceNote(p: ModelPrice): string {
  return `price ${p.model} (${p.provider}, taken ${p.taken}): input $${p.input}/M, cache read $${p.cacheRead}/M, write 5m $${p.cacheWrite5m}/M, write 1h $${p.cacheWrite1h}/M, output $${p.output}/M${p.storagePerHour !== undefined ? `, storage $${p.storagePerHour}/M/hour` : ''}`;
}
