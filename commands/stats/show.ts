/** `tokenless stats show ID`: one record, with what is kept of its before and after texts. */
import * as z from 'zod/mini';
import { loadConfig } from '../../src/config/config.ts';
import { getRecord } from '../../src/store/stats-client.ts';
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
  const row = readStats(loadConfig().dataDir, null, (db) => getRecord(db, Number(id)));
  if (row === null) throw new CliError(`tokenless stats show: no record ${id}`);
  const stashKeys = parseStashKeys(row.stash_keys);
  const kept = keptOf(row, stashKeys);
  if (options.json === true) return writeJson({ ...row, stash_keys: stashKeys, retrieve: kept.retrieve, note: TEXTS_NOT_KEPT });
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
    `tokens       ${int(row.before_tokens)} -> ${int(row.after_tokens)} (${signed(row.before_tokens - row.after_tokens)}, ${row.token_method})`,
    `stash keys   ${stashKeys.join(', ') || '-'}`,
    `before       ${describeSide(kept.before)}`,
    `after        ${describeSide(kept.after)}`,
    ...kept.retrieve.map((command) => `original     ${command}`),
    '',
    wrapText(`(${TEXTS_NOT_KEPT})`, terminalWidth(), 1),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
