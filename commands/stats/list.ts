/** `tokenless stats list`: recent records, newest first. */
import * as z from 'zod/mini';
import { loadConfig } from '../../src/config/config.ts';
import { listRecords, type ListedRow } from '../../src/store/stats-query.ts';
import { parseOptions } from '../shared/options.ts';
import { digits, int, isoTime, readStats, signed, toInt, writeJson } from '../shared/stats-common.ts';

const ListOptions = z.object({ limit: z.optional(digits), session: z.optional(z.string()), json: z.optional(z.boolean()) });

export async function statsListCommand(raw: unknown): Promise<void> {
  const options = parseOptions(ListOptions, raw, 'stats list');
  const rows = readStats(loadConfig().dataDir, [] as ListedRow[], (db) => listRecords(db, toInt(options.limit, 20), options.session));
  if (options.json === true) return writeJson({ records: rows });
  const { renderStatsReport } = await import('../ui/StatsTable.tsx');
  process.stdout.write(
    renderStatsReport({
      sections: [
        {
          title: 'recent records (newest first)',
          columns: [
            { header: 'id', align: 'right' },
            // The figures are what the list is for: the time goes (after lifecycle and mode) before a figure would be cut.
            { header: 'time (UTC)', align: 'left', min: 20, optional: 3 },
            { header: 'lifecycle', align: 'left', optional: 1 },
            { header: 'tool', align: 'left', min: 6 },
            { header: 'operation', align: 'left', max: 32, min: 12 },
            { header: 'mode', align: 'left', optional: 2 },
            { header: 'session', align: 'left', max: 20, min: 10 },
            { header: 'before', align: 'right' },
            { header: 'after', align: 'right' },
            { header: 'saved', align: 'right' },
          ],
          rows: rows.map((r) => [
            String(r.id),
            isoTime(r.ts),
            r.lifecycle,
            r.tool_name ?? '-',
            r.operation,
            r.mode,
            r.session_id,
            int(r.before_tokens),
            int(r.after_tokens),
            signed(r.saved_tokens),
          ]),
          empty: 'no records yet',
        },
      ],
      notes: ['tokens estimated unless `show` says counted; before capped at what the host shows; `tokenless stats show ID` for one record'],
    }),
  );
}
