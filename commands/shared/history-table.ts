/**
 * `syt cost history` as tables for the terminal's width: one row per session with one column per policy the
 * simulator knows (headed P1, P2… where the name is long; the columns that do not fit go on in a further table, so
 * none is ever dropped), then the totals with every policy by name, each figure beside the largest validation error
 * it carries, and the hindsight bound on its own line, never part of the headline claim (issue 27).
 */
import type { HistoryReport, HistorySession } from '../../src/cost/history.ts';
import { terminalWidth } from './terminal.ts';
import { fitTable } from '../ui/fit.ts';
import { renderStatsReport, type StatsColumn } from '../ui/StatsTable.tsx';
import { int, usd } from './stats-common.ts';

/** How many excluded sessions and skipped files are named in the notes; --json names all. */
const NAMED = 10;
/** A policy name longer than this is headed by its number (P1, P2…), which the totals table spells out. */
const HEADER = 8;

interface SessionTable {
  readonly columns: StatsColumn[];
  readonly rows: string[][];
  /** The policy headers this table shows. */
  readonly shown: string[];
}

/**
 * Every policy column shown at any width: the first table carries the session's figures and as many policy columns
 * as fit; the ones that do not go on into further tables, keyed by session, each as wide as the width allows. A
 * table shows at least one policy, so a terminal too narrow for even that still gets every column (cut by the line).
 */
function policyTables(
  remaining: readonly number[],
  width: number,
  ids: readonly StatsColumn[],
  idRows: readonly string[][],
  names: readonly string[],
  header: (policy: number) => string,
  cell: (row: number, policy: number) => string,
): SessionTable[] {
  const tables: SessionTable[] = [];
  let left = [...remaining];
  let base: readonly StatsColumn[] = ids;
  let baseRows: readonly string[][] = idRows;
  while (left.length > 0) {
    const columns: StatsColumn[] = [
      ...base,
      // Optional only to find how many fit: the rightmost goes first, after the optional figures of the base.
      ...left.map((p, k): StatsColumn => ({ header: header(p), align: 'right', optional: 2 + left.length - k })),
    ];
    const rows = baseRows.map((row, r) => [...row, ...left.map((p) => cell(r, p))]);
    const fitted = fitTable(columns, rows, width);
    const fits = left.filter((_, k) => fitted.keep.includes(base.length + k));
    const taken = fits.length > 0 ? fits : left.slice(0, 1);
    const count = taken.length;
    tables.push({
      columns: [...base, ...taken.map((p): StatsColumn => ({ header: header(p), align: 'right' }))],
      rows: baseRows.map((row, r) => [...row, ...taken.map((p) => cell(r, p))]),
      shown: taken.map(header),
    });
    left = left.slice(count);
    base = [{ header: 'session', align: 'left', max: 36, min: 8 }];
    baseRows = names.map((name) => [name]);
  }
  return tables;
}

export function renderHistory(report: HistoryReport & { readonly source: readonly string[]; readonly transcripts_found: number }, width = terminalWidth()): string {
  const { totals, sessions } = report;
  const policies = totals.policies.map((p) => p.policy);
  let numbered = 0;
  const keys = policies.map((policy) => (policy.length <= HEADER ? policy : `P${(numbered += 1)}`));
  const key = (i: number): string => keys[i] ?? '';
  const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
  const errorCell = (s: HistorySession) => `${pct(s.validation_error)}${s.excluded === null ? '' : '!'}`;
  const ids: StatsColumn[] = [
    { header: 'started', align: 'left', min: 10 },
    // Claude Code names a project's directory after its whole path: useful only where there is room for it.
    { header: 'project', align: 'left', max: 40, optional: 0 },
    { header: 'session', align: 'left', max: 36, min: 8 },
    { header: 'requests', align: 'right', optional: 1 },
    { header: 'error', align: 'right' },
    { header: 'recorded', align: 'right' },
  ];
  const idCells = (s: HistorySession): string[] => [s.started?.slice(0, 10) ?? '?', s.project, s.file, int(s.requests), errorCell(s), usd(s.recorded_cost)];
  const policyCell = (s: HistorySession, policy: (typeof policies)[number]): string => {
    const saving = s.savings[policy];
    return saving === null ? '-' : usd(saving.dollars);
  };
  const sessionTables = policyTables(policies.map((_, i) => i), width, ids, sessions.map(idCells), sessions.map((s) => s.file), (i) => key(i), (row, i) => policyCell(sessions[row] as HistorySession, policies[i] as (typeof policies)[number]));
  const byReason = Object.entries(report.skipped_by_reason).map(([reason, n]) => `${n} ${reason}`);
  const { not_taken: nt } = report;
  const notTaken = [
    nt.other_project > 0 ? `${nt.other_project} of other projects (--project)` : '',
    nt.before_since > 0 ? `${nt.before_since} unchanged since --since` : '',
    nt.over_limit > 0 ? `${nt.over_limit} older than the newest taken (--max-sessions)` : '',
    nt.over_time > 0 ? `${nt.over_time} not reached within --max-seconds` : '',
  ].filter((text) => text !== '');
  const hooks = totals.policies.find((p) => p.policy === 'hooks');
  const excluded = sessions.filter((s) => s.excluded !== null);
  const hooksFailed = sessions.filter((s) => s.hooks_error !== null);
  return renderStatsReport(
    {
      header: [
        `${totals.sessions} session(s) from ${report.transcripts_found} transcript(s) ${report.source.length === 1 ? `under ${report.source[0]}` : `in the ${report.source.length} paths given`}` +
          (byReason.length > 0 ? `; skipped: ${byReason.join(', ')}` : '') +
          (notTaken.length > 0 ? `; not taken: ${notTaken.join(', ')}` : ''),
        `${totals.reproduced} reproduced within ${pct(report.bound)} of their recorded cache usage (largest error ${pct(totals.validation_error)}, cost-weighted ${pct(totals.validation_error_weighted)}); ${totals.excluded === 0 ? 'none over it' : `${totals.excluded} over it: listed with "!", no saving claimed for them`}`,
        `recorded ${usd(totals.recorded_cost)} over all sessions; of the reproduced ones ${usd(totals.recorded_cost_reproduced)} recorded, ${usd(totals.reproduced_cost)} simulated` +
          (hooks === undefined || hooks.sessions_priced === 0 ? '' : `; the hooks would have saved ${usd(hooks.dollars)} (${pct(hooks.fraction)}), ${usd(report.hooks_net.net_dollars)} net of retrieval turns`) +
          '; each policy alone is in the totals below',
        `with the hooks, the gateway's folds and the online TTL rule (decided per request from what the gateway had seen): ${usd(totals.online.cost)}, ${usd(totals.online.dollars)} (${pct(totals.online.fraction)}) lower than simulated, error at most ${pct(totals.online.validation_error)}`,
        // A person cannot configure hindsight (issue 27): this bound is never added into the claim above.
        `best possible, hindsight (an upper bound, not a saving): per session the hooks, the gateway's folds where they fold and whichever TTL policy saved most there, ${usd(totals.hindsightBound.dollars)} (${pct(totals.hindsightBound.fraction)})`,
      ],
      sections: [
        ...sessionTables.map((table, n) => ({
          title: n === 0 ? 'sessions (savings in dollars: simulated cost without the policy minus with it)' : `sessions, continued: ${table.shown.join(', ')}`,
          columns: table.columns,
          rows: table.rows,
          empty: 'no sessions',
        })),
        {
          title: `totals over the ${totals.reproduced} reproduced session(s)`,
          columns: [
            { header: 'figure', align: 'left', min: 30, max: 44 },
            { header: 'dollars', align: 'right' },
            { header: 'share', align: 'right' },
            { header: 'sessions', align: 'right' },
            { header: 'error at most', align: 'right' },
          ],
          rows: [
            [`recorded, all ${totals.sessions} session(s)`, usd(totals.recorded_cost), '', String(totals.sessions), 'not simulated'],
            [`recorded, the ${totals.reproduced} reproduced`, usd(totals.recorded_cost_reproduced), '', String(totals.reproduced), 'not simulated'],
            ['simulated, no policy', usd(totals.reproduced_cost), '', String(totals.reproduced), pct(totals.validation_error)],
            ...totals.policies.map((p, i) => [
              key(i) === p.policy ? `${p.policy} save` : `${key(i)} ${p.policy} saves`,
              p.sessions_priced === 0 ? '-' : usd(p.dollars),
              p.sessions_priced === 0 ? '' : pct(p.fraction),
              `${p.sessions_paying} pay of ${p.sessions_priced}`,
              p.sessions_priced === 0 ? '' : pct(p.validation_error),
            ]),
            [
              'hooks save, net of retrieval turns',
              usd(report.hooks_net.net_dollars),
              pct(totals.reproduced_cost === 0 ? 0 : report.hooks_net.net_dollars / totals.reproduced_cost),
              String(totals.reproduced),
              pct(totals.validation_error),
            ],
            ['hooks, folds and online TTL save', usd(totals.online.dollars), pct(totals.online.fraction), String(totals.reproduced), pct(totals.online.validation_error)],
            ['best possible, hindsight', usd(totals.hindsightBound.dollars), pct(totals.hindsightBound.fraction), String(totals.reproduced), pct(totals.hindsightBound.validation_error)],
          ],
        },
      ],
      notes: [
        'error: the simulator\'s validation error, cache tokens it misplaced against the session\'s recorded usage (the larger of reads and writes); savings are claimed only within 5%',
        'recorded: every billed request at its model\'s dated price: ' + report.prices.map((p) => `${p.model} (taken ${p.taken})`).join(', '),
        'hooks: each tool result through the hooks `syt init` installs (session replay, default permission mode), priced in the cache simulation; negative: the policy would cost more',
        `hooks net: ${report.hooks_net.formula}; ${report.hooks_net.with_evidence} of ${report.hooks_net.shortened} shortened result(s) had such evidence (words only the original held, written next by the agent)`,
        'policies: as `syt cost simulate` prices them (README, "Audits, cost and the savings dashboard")',
        ...(keys.some((k, i) => k !== policies[i]) ? [`policy columns: ${policies.flatMap((policy, i) => (key(i) === policy ? [] : [`${key(i)} ${policy}`])).join(', ')}`] : []),
        ...excluded.slice(0, NAMED).map((s) => `not reproduced: ${s.file}: ${s.excluded}`),
        ...(excluded.length > NAMED ? [`and ${excluded.length - NAMED} more not reproduced (--json lists them)`] : []),
        ...hooksFailed.slice(0, NAMED).map((s) => `hooks not priced: ${s.file}: ${s.hooks_error}`),
        ...sessions.filter((s) => (s.hooks_replay?.retrieval_failures ?? 0) > 0).slice(0, NAMED).map((s) => `replay: ${s.hooks_replay?.retrieval_failures} stashed original(s) of ${s.file} did not retrieve byte-exact`),
        ...report.skipped.slice(0, NAMED).map((s) => `skipped (${s.reason}): ${s.path}: ${s.detail}`),
        ...(report.skipped.length > NAMED ? [`and ${report.skipped.length - NAMED} more skipped (--json lists them)`] : []),
      ],
    },
    width,
  );
}
