/** `syt dashboard [--out FILE]`: writes the self-contained savings page (stdout when no --out). */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as z from 'zod/mini';
import { loadConfig } from '../../src/config/config.ts';
import { ensurePrivateDir } from '../../src/store/data-dir.ts';
import { priceSavings } from '../../src/cost/savings.ts';
import { usageReport } from '../../src/cost/usage-report.ts';
import { DEFAULT_LIMIT, emptyTotals, savingRows, summarize, type SavingRow, type Summary } from '../../src/store/stats-query.ts';
import { NET_ASSUMPTIONS, netFromTotals } from '../../src/cost/net.ts';
import { emptyTurnsReport, turnsReport } from '../../src/store/retrievals.ts';
import { CliError } from '../errors.ts';
import { parseOptions } from '../options.ts';
import { renderDashboard } from '../ui/Dashboard.ts';
import { accountingNotes, digits, int, readStats, toInt, writeJson } from './common.ts';

/** Where a dashboard asked for at a terminal goes, in the private data dir. */
const DEFAULT_FILE = 'dashboard.html';
import { loadUsageFrom } from './usage-source.ts';

const Options = z.object({
  out: z.optional(z.string()),
  log: z.optional(z.string()),
  claudeDir: z.optional(z.string()),
  model: z.optional(z.string()),
  rereads: z.optional(digits),
  limit: z.optional(digits),
  json: z.optional(z.boolean()),
});

export function dashboardCommand(raw: unknown): void {
  const options = parseOptions(Options, raw, 'dashboard');
  const config = loadConfig();
  const limit = toInt(options.limit, DEFAULT_LIMIT);
  const emptySummary: Summary = { limit, since: null, mode: 'active', totals: emptyTotals(), dryRun: emptyTotals(), byOperation: [], byTool: [], bySession: [], byDay: [] };
  const { summary, rows, turns } = readStats(config.dataDir, { summary: emptySummary, rows: [] as SavingRow[], turns: emptyTurnsReport() }, (db) => ({
    summary: summarize(db, { limit }),
    rows: savingRows(db, limit),
    turns: turnsReport(db),
  }));
  const net = netFromTotals(summary.totals.savedTokens, turns.totals.retrievals + turns.totals.reruns, turns.totals.printedTokens);
  const usage = loadUsageFrom(options, config.dataDir, false);
  const ours = priceSavings(rows, usage.requests, { model: options.model, rereads: toInt(options.rereads, 0) });
  const report = usageReport(usage.requests);
  const notes = [
    ...accountingNotes(summary.totals.estimated, summary.totals.records, summary.totals.hostCapped),
    `${ours.fromTranscripts} record(s) priced with their session's model and later requests from the transcripts; ${ours.assumed} with the assumption ${ours.assumptions.model}, ${ours.assumptions.rereads} later request(s)`,
    'later requests ignore compactions, which end re-reads early: dollars saved by our operations are an upper bound when priced from transcripts',
    `net: every retrieval or re-run turn assumed to re-read a ${int(NET_ASSUMPTIONS.prefixTokens)}-token prefix and write a ${int(NET_ASSUMPTIONS.outputTokens)}-token reply`,
    ...report.prices.map((p) => `price ${p.model}: ${p.priced_as === null ? 'unknown, not priced' : `as ${p.priced_as}, taken ${p.taken}`}`),
  ];
  const html = renderDashboard({ generatedAt: new Date().toISOString(), summary, ours, usage: report, transcriptSource: usage.source, notes, turns, net });
  // A terminal gets the path of a file, never a screenful of HTML; a pipe or a redirect gets the page itself.
  const toTerminal = process.stdout.isTTY === true;
  if (options.out === undefined && !toTerminal) {
    if (options.json === true) return writeJson({ out: null, bytes: Buffer.byteLength(html) });
    return void process.stdout.write(html);
  }
  const out = resolve(options.out ?? join(config.dataDir, DEFAULT_FILE));
  try {
    if (options.out === undefined) ensurePrivateDir(config.dataDir);
    writeFileSync(out, html);
  } catch (error) {
    throw new CliError(`tokenless dashboard: cannot write ${out}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (options.json === true) return writeJson({ out, bytes: Buffer.byteLength(html), records: summary.totals.records, requests: report.totals.requests });
  process.stdout.write(`wrote ${out} (${int(Buffer.byteLength(html))} bytes)${options.out === undefined ? '; open it in a browser (--out FILE to choose where, or pipe to get the HTML)' : ''}\n`);
}
