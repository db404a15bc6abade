import * as z from 'zod/mini';
import { loadConfig } from '../../src/config/config.ts';
import { DEFAULT_LIMIT, emptyTotals, summarize, type Group, type Summary } from '../../src/store/stats-query.ts';
import { NET_ASSUMPTIONS, NET_WHY, netFromTotals } from '../../src/cost/net.ts';
import { emptyTurnsReport, LOSSLESS_SWITCH, turnsReport, type KindRate, type LosslessSwitch } from '../../src/store/retrievals.ts';
import { parseOptions } from '../options.ts';
import { accountingNotes, digits, int, parseSince, pct, readStats, signed, toInt, writeJson } from './common.ts';

const Options = z.object({
  limit: z.optional(digits),
  since: z.optional(z.string()),
  mode: z.optional(z.enum(['active', 'dry_run', 'all'])),
  format: z.optional(z.enum(['table', 'json', 'csv'])),
  top: z.optional(digits),
  json: z.optional(z.boolean()),
});

/** `tokenless stats summary`: savings by operation, tool, session and day over the latest rows. */
export async function statsSummaryCommand(raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, 'stats summary');
  const query = { limit: toInt(options.limit, DEFAULT_LIMIT), since: parseSince(options.since), mode: options.mode ?? 'active' } as const;
  const empty: Summary = { ...query, totals: emptyTotals(), dryRun: emptyTotals(), byOperation: [], byTool: [], bySession: [], byDay: [] };
  const { summary, turns } = readStats(loadConfig().dataDir, { summary: empty, turns: emptyTurnsReport() }, (db) => ({
    summary: summarize(db, query),
    turns: turnsReport(db, query.since ?? 0),
  }));
  const net = netFromTotals(summary.totals.savedTokens, turns.totals.retrievals + turns.totals.reruns, turns.totals.printedTokens);
  const format = options.json === true ? 'json' : (options.format ?? 'table');
  if (format === 'json') {
    return writeJson({
      ...summary,
      net: { ...net, assumptions: NET_ASSUMPTIONS },
      retrievals: turns.totals,
      byViewKind: turns.byViewKind,
      losslessSwitches: turns.switches,
      token_method: tokenMethod(summary),
      notes: accountingNotes(summary.totals.estimated, summary.totals.records, summary.totals.hostCapped),
    });
  }
  if (format === 'csv') return void process.stdout.write(toCsv(summary));
  const { renderStatsReport } = await import('../ui/StatsTable.tsx');
  const t = summary.totals;
  const top = toInt(options.top, 20);
  process.stdout.write(
    renderStatsReport({
      header: [
        `records ${int(t.records)} (${summary.mode}, latest ${int(summary.limit)}${summary.since !== null ? ` since ${new Date(summary.since).toISOString()}` : ''})`,
        `tokens  before ${int(t.beforeTokens)}  after ${int(t.afterTokens)}  saved ${signed(t.savedTokens)} (${pct(t.savedTokens, t.beforeTokens)})`,
        `net     ${signed(net.net)} = ${signed(net.gross)} gross - ${int(net.retrieved)} retrieved - ${int(net.turnCost)} for ${int(net.turns)} turn(s)`,
        ...(summary.dryRun.records > 0 ? [`dry run ${int(summary.dryRun.records)} record(s) would have saved ${signed(summary.dryRun.savedTokens)} tokens (not applied)`] : []),
      ],
      sections: [
        section('by operation', summary.byOperation.slice(0, top), summary.byOperation.length),
        section('by tool', summary.byTool.slice(0, top), summary.byTool.length),
        section('by session', summary.bySession.slice(0, top), summary.bySession.length),
        section('by day (UTC)', summary.byDay.slice(-top), summary.byDay.length),
        kindSection(turns.byViewKind.slice(0, top), turns.byViewKind.length),
        ...(turns.switches.length > 0 ? [switchSection(turns.switches)] : []),
      ],
      notes: [
        ...accountingNotes(t.estimated, t.records, t.hostCapped),
        net.formula,
        `${NET_WHY}; live stats assume a ${int(NET_ASSUMPTIONS.prefixTokens)}-token prefix and a ${int(NET_ASSUMPTIONS.outputTokens)}-token reply`,
        `a view kind whose views cost a turn (retrieved or re-run) more than 1 time in 5 in a project, ${LOSSLESS_SWITCH.minTurns} turns at least, gets lossless views only there`,
      ],
    }),
  );
}

function tokenMethod(summary: Summary): 'estimated' | 'counted' | 'mixed' {
  const { estimated, records } = summary.totals;
  return estimated === records ? 'estimated' : estimated === 0 ? 'counted' : 'mixed';
}

/** A table of the largest groups (days: the latest); how many were left out is in the title, all are in --json / csv. */
function section(title: string, groups: readonly Group[], total: number) {
  return {
    title: total > groups.length ? `${title} (${groups.length} of ${total}; --json or --format csv for all)` : title,
    columns: [
      { header: title.replace(/^by /, '').replace(/ \(UTC\)$/, ''), align: 'left', max: 48, min: 20 },
      { header: 'records', align: 'right' },
      { header: 'before', align: 'right' },
      { header: 'after', align: 'right' },
      { header: 'saved', align: 'right' },
      { header: 'saved %', align: 'right' },
    ] as const,
    rows: groups.map((g) => [g.key, int(g.records), int(g.beforeTokens), int(g.afterTokens), signed(g.savedTokens), pct(g.savedTokens, g.beforeTokens)]),
  };
}

/** Per view kind: how often its views cost the agent a turn (the 1-in-5 switch reads the same counts per project). */
function kindSection(kinds: readonly KindRate[], total: number) {
  return {
    title: total > kinds.length ? `by view kind (${kinds.length} of ${total}; --json for all)` : 'by view kind',
    columns: [
      { header: 'view kind', align: 'left', max: 40, min: 16 },
      { header: 'views', align: 'right' },
      { header: 'lossy', align: 'right' },
      { header: 'retrieved', align: 'right' },
      { header: 're-run', align: 'right' },
      { header: 'rate', align: 'right' },
    ] as const,
    rows: kinds.map((k) => [k.viewKind, int(k.views), int(k.lossyViews), `${int(k.retrievals)}${k.targeted > 0 ? ` (${int(k.targeted)} part)` : ''}`, int(k.reruns), pct(k.rate, 1)]),
  };
}

function switchSection(switches: readonly LosslessSwitch[]) {
  return {
    title: 'switched to lossless (views retrieved more than 1 in 5)',
    columns: [
      { header: 'project', align: 'left', max: 40, min: 16 },
      { header: 'view kind', align: 'left', max: 24, min: 10 },
      { header: 'views', align: 'right' },
      { header: 'turns', align: 'right' },
    ] as const,
    rows: switches.map((s) => [s.project, s.view_kind, int(s.views), int(s.retrievals)]),
  };
}

const CSV_HEADER = 'group,key,records,before_tokens,after_tokens,saved_tokens,raw_before_tokens,before_bytes,after_bytes,host_capped,estimated';

function toCsv(summary: Summary): string {
  const lines = [CSV_HEADER, csvLine('total', 'total', { key: 'total', ...summary.totals })];
  const groups: [string, readonly Group[]][] = [
    ['operation', summary.byOperation],
    ['tool', summary.byTool],
    ['session', summary.bySession],
    ['day', summary.byDay],
  ];
  for (const [name, list] of groups) for (const g of list) lines.push(csvLine(name, g.key, g));
  return `${lines.join('\n')}\n`;
}

function csvLine(group: string, key: string, g: Group): string {
  const fields = [group, key, g.records, g.beforeTokens, g.afterTokens, g.savedTokens, g.rawBeforeTokens, g.beforeBytes, g.afterBytes, g.hostCapped, g.estimated];
  return fields.map((f) => csvField(String(f))).join(',');
}

/** RFC 4180 quoting; a leading formula character is neutralised so a spreadsheet never runs a session id. */
function csvField(value: string): string {
  const safe = /^[=+\-@]/.test(value) && !/^-?\d/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
