/** `tokenless stats compare BASELINE SESSION`: a dry-run baseline session against an active one. */
import * as z from 'zod/mini';
import { loadConfig } from '../../src/config/config.ts';
import { compareSessions, emptyTotals, DEFAULT_LIMIT, type Comparison, type Group } from '../../src/store/stats-query.ts';
import { parseOptions } from '../shared/options.ts';
import { accountingNotes, digits, int, pct, readStats, signed, toInt, writeJson } from '../shared/stats-common.ts';

const Options = z.object({ limit: z.optional(digits), json: z.optional(z.boolean()) });

export async function statsCompareCommand(baseline: string, session: string, raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, 'stats compare');
  const limit = toInt(options.limit, DEFAULT_LIMIT);
  const empty: Comparison = { baseline: { session: baseline, totals: emptyTotals(), byOperation: [] }, session: { session, totals: emptyTotals(), byOperation: [] } };
  const comparison = readStats(loadConfig().dataDir, empty, (db) => compareSessions(db, baseline, session, limit));
  const b = comparison.baseline.totals;
  const s = comparison.session.totals;
  const delta = { records: s.records - b.records, savedTokens: s.savedTokens - b.savedTokens };
  if (options.json === true) return writeJson({ limit, ...comparison, delta });
  const operations = [...new Set([...comparison.baseline.byOperation, ...comparison.session.byOperation].map((g) => g.key))].sort();
  const find = (list: readonly Group[], key: string) => list.find((g) => g.key === key);
  const { renderStatsReport } = await import('../ui/StatsTable.tsx');
  process.stdout.write(
    renderStatsReport({
      header: [
        `baseline ${baseline}: ${int(b.records)} record(s), would save ${signed(b.savedTokens)} of ${int(b.beforeTokens)} tokens (${pct(b.savedTokens, b.beforeTokens)})`,
        `session  ${session}: ${int(s.records)} record(s), saved ${signed(s.savedTokens)} of ${int(s.beforeTokens)} tokens (${pct(s.savedTokens, s.beforeTokens)})`,
      ],
      sections: [
        {
          title: 'by operation',
          columns: [
            { header: 'operation', align: 'left', max: 40 },
            { header: 'baseline records', align: 'right' },
            { header: 'baseline saved', align: 'right' },
            { header: 'session records', align: 'right' },
            { header: 'session saved', align: 'right' },
          ],
          rows: operations.map((op) => {
            const x = find(comparison.baseline.byOperation, op);
            const y = find(comparison.session.byOperation, op);
            return [op, int(x?.records ?? 0), signed(x?.savedTokens ?? 0), int(y?.records ?? 0), signed(y?.savedTokens ?? 0)];
          }),
          empty: 'no records in either session',
        },
      ],
      notes: ['baseline rows are normally dry_run (recorded, never applied); the session\'s are applied', ...accountingNotes(b.estimated + s.estimated, b.records + s.records, b.hostCapped + s.hostCapped)],
    }),
  );
}
