/** `tokenless stats diff ID` and `tokenless stats diff --session S [--tool-use-id T]`. */
import * as z from 'zod/mini';
import { loadConfig } from '../../src/config/config.ts';
import { buildChains, type Chain } from '../../src/store/stats-chain.ts';
import { getRecord, sessionRecords } from '../../src/store/stats-client.ts';
import { describeSide, keptOf, parseStashKeys, TEXTS_NOT_KEPT } from '../../src/store/stats-kept.ts';
import { terminalWidth } from '../shared/terminal.ts';
import { wrapText } from '../ui/wrap.ts';
import { CliError, usageError } from '../shared/errors.ts';
import { parseOptions } from '../shared/options.ts';
import { int, readStats, writeJson } from '../shared/stats-common.ts';

const Options = z.object({ session: z.optional(z.string()), toolUseId: z.optional(z.string()), json: z.optional(z.boolean()) });

export function statsDiffCommand(id: string | undefined, raw: unknown): void {
  const options = parseOptions(Options, raw, 'stats diff');
  if (options.session !== undefined) return sessionDiff(options.session, options.toolUseId, options.json === true);
  if (id === undefined || !/^\d+$/.test(id)) throw usageError('tokenless stats diff: give a record ID, or --session S [--tool-use-id T]');
  const row = readStats(loadConfig().dataDir, null, (db) => getRecord(db, Number(id)));
  if (row === null) throw new CliError(`tokenless stats diff: no record ${id}`);
  const kept = keptOf(row, parseStashKeys(row.stash_keys));
  if (options.json === true) return writeJson({ ...kept, note: TEXTS_NOT_KEPT });
  const lines = [
    `#${row.id} before (${row.tool_name ?? row.lifecycle}): ${describeSide(kept.before)}`,
    `#${row.id} after (${row.operation}): ${describeSide(kept.after)}`,
    ...kept.retrieve.map((command) => `original: ${command}`),
    wrapText(`(${TEXTS_NOT_KEPT})`, terminalWidth(), 1),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

function sessionDiff(session: string, toolUseId: string | undefined, json: boolean): void {
  const chains = readStats(loadConfig().dataDir, [] as Chain[], (db) => buildChains(sessionRecords(db, session, toolUseId)));
  if (json) return writeJson({ session, tool_use_id: toolUseId ?? null, chains, notes: [TEXTS_NOT_KEPT, 'a stage links to the next only when its output digest equals the next input digest'] });
  const out: string[] = [];
  if (chains.length === 0) out.push(`no records for session ${session}${toolUseId !== undefined ? ` and tool use ${toolUseId}` : ''}`);
  for (const chain of chains) {
    const end = chain.endToEnd;
    out.push(`== tool use ${chain.toolUseId} (${chain.toolName ?? '-'}): ${chain.stages.length} stage(s), ${int(end.beforeTokens)} -> ${int(end.afterTokens)} tokens${end.complete ? '' : ', chain broken'}`);
    chain.stages.forEach((stage, i) => {
      const lines = stage.beforeLines === null || stage.afterLines === null ? '' : `, ${int(stage.beforeLines)} -> ${int(stage.afterLines)} lines`;
      out.push(`-- stage ${i + 1}: #${stage.id} ${stage.lifecycle} ${stage.operation} (${stage.mode}) ${int(stage.beforeTokens)} -> ${int(stage.afterTokens)} tokens${lines}`);
      if (i < chain.stages.length - 1) out.push(stage.linkedToNext ? '   | output is the next stage\'s input' : '   x not linked: the next stage\'s input differs from this output');
    });
  }
  if (chains.length > 0) out.push(wrapText(`(${TEXTS_NOT_KEPT})`, terminalWidth(), 1));
  process.stdout.write(`${out.join('\n')}\n`);
}
