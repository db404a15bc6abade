/** `tokenless stats diff ID` and `tokenless stats diff --session S [--tool-use-id T]`. */
import * as z from 'zod/mini';
import { loadConfig } from '../../src/config/config.ts';
import { buildChains, type Chain } from '../../src/store/stats-chain.ts';
import { getRecord, sessionRecords } from '../../src/store/stats-client.ts';
import { DIFF_MAX_BYTES, DIFF_MAX_LINES, unifiedDiff } from '../../src/store/stats-diff.ts';
import { CliError, usageError } from '../errors.ts';
import { parseOptions } from '../options.ts';
import { int, readStats, writeJson } from './common.ts';

const Options = z.object({ session: z.optional(z.string()), toolUseId: z.optional(z.string()), json: z.optional(z.boolean()) });

const capNote = `diffs are capped at ${DIFF_MAX_LINES} lines and ${DIFF_MAX_BYTES / 1024 / 1024} MiB`;

export function statsDiffCommand(id: string | undefined, raw: unknown): void {
  const options = parseOptions(Options, raw, 'stats diff');
  if (options.session !== undefined) return sessionDiff(options.session, options.toolUseId, options.json === true);
  if (id === undefined || !/^\d+$/.test(id)) throw usageError('tokenless stats diff: give a record ID, or --session S [--tool-use-id T]');
  const row = readStats(loadConfig().dataDir, null, (db) => getRecord(db, Number(id)));
  if (row === null) throw new CliError(`tokenless stats diff: no record ${id}`);
  const diff = unifiedDiff(row.before_text ?? '', row.after_text ?? '', { before: `#${row.id} before (${row.tool_name ?? row.lifecycle})`, after: `#${row.id} after (${row.operation})` });
  if (options.json === true) return writeJson({ id: row.id, operation: row.operation, texts_truncated: row.texts_truncated !== 0, ...diff });
  const tail = diff.truncated ? [`… diff truncated (${capNote})`] : [];
  process.stdout.write(`${diff.text}${[...tail, `${diff.removed} line(s) removed, ${diff.added} added`].join('\n')}\n`);
}

function sessionDiff(session: string, toolUseId: string | undefined, json: boolean): void {
  const chains = readStats(loadConfig().dataDir, [] as Chain[], (db) => buildChains(sessionRecords(db, session, toolUseId)));
  if (json) return writeJson({ session, tool_use_id: toolUseId ?? null, chains, notes: [capNote, 'a stage links to the next only when its stored output equals the next input'] });
  const out: string[] = [];
  if (chains.length === 0) out.push(`no records for session ${session}${toolUseId !== undefined ? ` and tool use ${toolUseId}` : ''}`);
  for (const chain of chains) {
    const end = chain.endToEnd;
    out.push(`== tool use ${chain.toolUseId} (${chain.toolName ?? '-'}): ${chain.stages.length} stage(s), ${int(end.beforeTokens)} -> ${int(end.afterTokens)} tokens${end.complete ? '' : ', chain broken'}`);
    chain.stages.forEach((stage, i) => {
      out.push(`-- stage ${i + 1}: #${stage.id} ${stage.lifecycle} ${stage.operation} (${stage.mode}) ${int(stage.beforeTokens)} -> ${int(stage.afterTokens)}`);
      out.push(stage.diff.text.trimEnd());
      if (stage.diff.truncated) out.push(`… diff truncated (${capNote})`);
      if (i < chain.stages.length - 1) out.push(stage.linkedToNext ? '   | output is the next stage\'s input' : '   x not linked: the next stage\'s input differs from this output');
    });
  }
  process.stdout.write(`${out.join('\n')}\n`);
}
