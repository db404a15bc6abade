/**
 * `tokenless stats diff ID` (the original against the view, from the stash: src/store/stats-audit.ts) and
 * `tokenless stats diff --session S [--tool-use-id T]` (the chain of stages per tool use).
 */
import * as z from 'zod/mini';
import { loadConfig } from '../../src/config/config.ts';
import { buildChains, type Chain } from '../../src/store/stats-chain.ts';
import { getRecord, sessionRecords } from '../../src/store/stats-client.ts';
import { keptOf, parseStashKeys, TEXTS_NOT_KEPT } from '../../src/store/stats-kept.ts';
import { exactUtf8 } from '../../src/store/marker.ts';
import { StashStore, type StashLimits } from '../../src/store/stash.ts';
import { audit, type AuditSide } from '../../src/store/stats-audit.ts';
import { recordFigures } from '../../src/store/stats-query.ts';
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
  const config = loadConfig();
  const found = readStats(config.dataDir, null, (db) => {
    const record = getRecord(db, Number(id));
    const figures = recordFigures(db, Number(id));
    return record === null || figures === null ? null : { row: record, figures };
  });
  if (found === null) throw new CliError(`tokenless stats diff: no record ${id}`);
  const { row, figures } = found;
  const kept = keptOf(row, parseStashKeys(row.stash_keys));
  const [original, view] = readSides(config.dataDir, config.stashLimits, [row.before_digest, row.after_digest]);
  const title = `${row.lifecycle} ${row.tool_name ?? '-'} ${row.operation}`;
  const result = audit(kept, title, { before_tokens: figures.before_tokens, after_tokens: figures.after_tokens, host_capped: figures.host_capped === 1 }, Math.round(config.stashLimits.ttlMs / 86_400_000), original, view);
  if (options.json === true) {
    return writeJson({ ...kept, counted: { before_tokens: figures.before_tokens, after_tokens: figures.after_tokens }, diff: result.diff, truncated: result.truncated, missing: result.missing, note: TEXTS_NOT_KEPT });
  }
  process.stdout.write(`${result.header}\n${result.diff ?? `${(result.missing ?? '').split('\n').map((line) => wrapText(line, terminalWidth(), 10)).join('\n')}\n`}`);
}

/** Both sides from the stash by their content keys; a stash that cannot be opened reads as holding neither. */
function readSides(dataDir: string, limits: StashLimits, digests: readonly [string | null, string | null]): [AuditSide, AuditSide] {
  let stash: StashStore | null = null;
  try {
    stash = StashStore.open(dataDir, limits);
    const store = stash;
    const side = (digest: string | null): AuditSide => {
      if (digest === null) return { ok: false, reason: 'not_recorded' };
      const got = store.get(digest);
      if (!got.ok) return got;
      const text = exactUtf8(got.bytes);
      return text === null ? { ok: false, reason: 'damaged' } : { ok: true, text };
    };
    return [side(digests[0]), side(digests[1])];
  } catch {
    return [{ ok: false, reason: 'unknown' }, { ok: false, reason: 'unknown' }];
  } finally {
    stash?.close();
  }
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
