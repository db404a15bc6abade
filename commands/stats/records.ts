/** `tokenless stats list` and `tokenless stats show ID`: recent records, and one record with what is kept of it. */
import * as z from 'zod/mini';
import { loadConfig } from '../../src/config/config.ts';
import { getRecord } from '../../src/store/stats-client.ts';
import { describeSide, keptOf, parseStashKeys, TEXTS_NOT_KEPT } from '../../src/store/stats-kept.ts';
import { terminalWidth } from '../terminal.ts';
import { wrapText } from '../ui/wrap.ts';
import { HOST_SHOWN_CHARS, listRecords, recordFigures, type ListedRow } from '../../src/store/stats-query.ts';
import { CliError, usageError } from '../errors.ts';
import { parseOptions } from '../options.ts';
import { digits, int, isoTime, readStats, signed, toInt, writeJson } from './common.ts';

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

const ShowOptions = z.object({ json: z.optional(z.boolean()) });

export function statsShowCommand(id: string, raw: unknown): void {
  const options = parseOptions(ShowOptions, raw, 'stats show');
  if (!/^\d+$/.test(id)) throw usageError(`tokenless stats show: record id ${JSON.stringify(id)}: expected a whole number (the id column of \`stats list\`)`);
  const found = readStats(loadConfig().dataDir, null, (db) => {
    const record = getRecord(db, Number(id));
    const figures = recordFigures(db, Number(id));
    return record === null || figures === null ? null : { row: record, figures };
  });
  if (found === null) throw new CliError(`tokenless stats show: no record ${id}`);
  const { row, figures } = found;
  const stashKeys = parseStashKeys(row.stash_keys);
  const kept = keptOf(row, stashKeys);
  // The figures `stats list` and `stats summary` count; the stored ones stay in before/after below and in the JSON row.
  const counted = { before_tokens: figures.before_tokens, after_tokens: figures.after_tokens, saved_tokens: figures.before_tokens - figures.after_tokens, host_capped: figures.host_capped === 1 };
  if (options.json === true) return writeJson({ ...row, stash_keys: stashKeys, counted, retrieve: kept.retrieve, note: TEXTS_NOT_KEPT });
  const cappedNote = counted.host_capped ? `; before capped at the ${int(HOST_SHOWN_CHARS)} characters the host shows (${int(row.before_tokens)} in full)` : '';
  const lines = [
    `record       ${row.id}`,
    `time         ${isoTime(row.ts)}`,
    `lifecycle    ${row.lifecycle}`,
    `operation    ${row.operation}`,
    `tool         ${row.tool_name ?? '-'}${row.tool_use_id !== null ? ` (${row.tool_use_id})` : ''}`,
    `session      ${row.session_id} (agent ${row.agent_id})`,
    `origin       ${row.origin ?? '-'}, content ${row.content_type ?? '-'}`,
    `mode         ${row.mode}`,
    `recovery     ${row.recoverability}${row.stash_writes > 0 ? `, ${row.stash_writes} stash write(s)` : ''}`,
    `tokens       ${int(counted.before_tokens)} -> ${int(counted.after_tokens)} (${signed(counted.saved_tokens)}, ${row.token_method}${cappedNote})`,
    `stash keys   ${stashKeys.join(', ') || '-'}`,
    `before       ${describeSide(kept.before)}`,
    `after        ${describeSide(kept.after)}`,
    ...kept.retrieve.map((command) => `original     ${command}`),
    '',
    wrapText(`(${TEXTS_NOT_KEPT})`, terminalWidth(), 1),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
