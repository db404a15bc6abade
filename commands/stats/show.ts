/** `tokenless stats show ID`: one record, with what is kept of its before and after texts. */
import * as z from 'zod/mini';
import { loadConfig } from '../../src/config/config.ts';
import { getRecord } from '../../src/store/stats-client.ts';
import { HOST_SHOWN_CHARS, recordFigures } from '../../src/store/stats-query.ts';
import { describeSide, keptOf, parseStashKeys, TEXTS_NOT_KEPT } from '../../src/store/stats-kept.ts';
import { terminalWidth } from '../shared/terminal.ts';
import { wrapText } from '../ui/wrap.ts';
import { CliError, usageError } from '../shared/errors.ts';
import { parseOptions } from '../shared/options.ts';
import { int, isoTime, readStats, signed, writeJson } from '../shared/stats-common.ts';

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
