/**
 * Aggregations over stats.db. The database does the heavy part (one grouped pass over the latest N rows, reading no
 * before/after texts); the roll-up into the four views is done here over the grouped rows.
 *
 * Honest accounting: a "before" larger than what the host would have shown the model is capped at that (Claude Code
 * shows at most 30,000 characters of a Bash output), so a saving never counts text the model would not have seen
 * anyway. The "after" is what the model was shown: it is capped only when it is itself over the host's limit (a
 * 476 KB output with a 2.8 KB view saves 30,000 characters' worth minus the whole view, never minus a scaled-down
 * view). Savings are before - after and may be negative. Every view (summary, list, show, cost) reads the same
 * expressions, so the figures agree.
 */
import * as z from 'zod/mini';
import { CLAUDE_CODE_SHELL_OUTPUT_CAP } from '../config/host-limits.ts';
import { schemaVersion, type SqlDatabase } from './sqlite.ts';

/** Claude Code's shell output cap: the wrapper (`run`) runs inside its Bash tool. */
export const HOST_SHOWN_CHARS = CLAUDE_CODE_SHELL_OUTPUT_CAP;
export const DEFAULT_LIMIT = 10_000;

export interface Totals {
  records: number;
  /** Before tokens as stored (the full output). */
  rawBeforeTokens: number;
  /** Before tokens capped at what the host would have shown. */
  beforeTokens: number;
  afterTokens: number;
  savedTokens: number;
  beforeBytes: number;
  afterBytes: number;
  /** Records whose before was capped at the host limit. */
  hostCapped: number;
  /** Records whose tokens were estimated (not counted with a real tokenizer). */
  estimated: number;
}

export interface Group extends Totals {
  readonly key: string;
}

export interface Summary {
  readonly limit: number;
  readonly since: number | null;
  readonly mode: 'active' | 'dry_run' | 'all';
  readonly totals: Totals;
  /** Dry-run rows in the window: what would have been saved, never applied. Zero when mode is dry_run or all. */
  readonly dryRun: Totals;
  readonly byOperation: Group[];
  readonly byTool: Group[];
  readonly bySession: Group[];
  readonly byDay: Group[];
}

export interface SummaryQuery {
  readonly limit?: number;
  /** Epoch ms; rows older are left out. */
  readonly since?: number | null;
  readonly mode?: 'active' | 'dry_run' | 'all';
}

/** One side's tokens capped at what the host shows, by that side's own size; shared by every query of savings. */
const capSide = (tokens: string, bytes: string): string =>
  `CASE WHEN (lifecycle = 'run' OR tool_name = 'Bash') AND ${bytes} > ${HOST_SHOWN_CHARS}
     THEN MIN(${tokens}, CAST(ROUND(${tokens} * ${HOST_SHOWN_CHARS}.0 / ${bytes}) AS INTEGER)) ELSE ${tokens} END`;
/** Exported for the telemetry reader (src/store/stats-export.ts), which must count exactly as summary does. */
export const BEFORE = capSide('before_tokens', 'before_bytes');
export const AFTER = capSide('after_tokens', 'after_bytes');

/** The counters every grouped query sums, each side capped at what the host shows. */
const SUMS = `COUNT(*) AS records, SUM(before_tokens) AS raw_before,
  SUM(${BEFORE}) AS before_tokens, SUM(${AFTER}) AS after_tokens,
  SUM(before_bytes) AS before_bytes, SUM(after_bytes) AS after_bytes,
  SUM((lifecycle = 'run' OR tool_name = 'Bash') AND before_bytes > ${HOST_SHOWN_CHARS}) AS host_capped,
  SUM(token_method = 'estimated') AS estimated`;

const GroupedRow = z.object({
  operation: z.string(),
  tool_name: z.nullable(z.string()),
  lifecycle: z.string(),
  session: z.string(),
  day: z.number(),
  mode: z.string(),
  records: z.number(),
  raw_before: z.number(),
  before_tokens: z.number(),
  after_tokens: z.number(),
  before_bytes: z.number(),
  after_bytes: z.number(),
  host_capped: z.number(),
  estimated: z.number(),
});
type GroupedRow = z.infer<typeof GroupedRow>;

export function summarize(db: SqlDatabase, query: SummaryQuery = {}): Summary {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const since = query.since ?? null;
  const mode = query.mode ?? 'active';
  const source = schemaVersion(db) >= 2 ? 'operations INDEXED BY operations_summary' : 'operations';
  const params = { since: since ?? 0, limit, bound: windowStart(db, source, since ?? 0, limit) };
  const rows = z.array(GroupedRow).parse(db.prepare(groupedSql(source)).all(params));
  const selected = rows.filter((row) => mode === 'all' || row.mode === mode);
  return {
    limit,
    since,
    mode,
    totals: addAll(selected),
    dryRun: addAll(mode === 'active' ? rows.filter((row) => row.mode === 'dry_run') : []),
    byOperation: groupBy(selected, (row) => row.operation),
    byTool: groupBy(selected, (row) => row.tool_name ?? `(${row.lifecycle})`),
    bySession: groupBy(selected, (row) => row.session),
    byDay: groupBy(selected, (row) => new Date(row.day * 86_400_000).toISOString().slice(0, 10)).sort((a, b) => (a.key < b.key ? -1 : 1)),
  };
}

/** The smallest id inside the window (the latest `limit` rows at or after `since`): a range bound for the index. */
function windowStart(db: SqlDatabase, source: string, since: number, limit: number): number {
  if (limit <= 0) return Number.MAX_SAFE_INTEGER;
  const id: unknown = db.prepare(`SELECT id FROM ${source} WHERE ts >= ? ORDER BY id DESC LIMIT 1 OFFSET ?`).pluck().get(since, limit - 1);
  return typeof id === 'number' ? id : 0;
}

/**
 * One grouped pass over the window, by every dimension at once (the four views are roll-ups of it, done here). Only
 * counters are read, through the covering index when the schema has it (migration 2), so SQLite never touches the
 * pages holding the texts. Session first and an integer day make the grouping cheapest (measured in BENCHMARKS.md).
 */
function groupedSql(source: string): string {
  return `SELECT session_id AS session, ts / 86400000 AS day, operation, tool_name, lifecycle, mode, ${SUMS}
    FROM ${source} WHERE id >= @bound AND ts >= @since GROUP BY 1, 2, 3, 4, 5, 6`;
}

export function emptyTotals(): Totals {
  return { records: 0, rawBeforeTokens: 0, beforeTokens: 0, afterTokens: 0, savedTokens: 0, beforeBytes: 0, afterBytes: 0, hostCapped: 0, estimated: 0 };
}

function add(into: Totals, row: GroupedRow): void {
  into.records += row.records;
  into.rawBeforeTokens += row.raw_before;
  into.beforeTokens += row.before_tokens;
  into.afterTokens += row.after_tokens;
  into.savedTokens += row.before_tokens - row.after_tokens;
  into.beforeBytes += row.before_bytes;
  into.afterBytes += row.after_bytes;
  into.hostCapped += row.host_capped;
  into.estimated += row.estimated;
}

function addAll(rows: readonly GroupedRow[]): Totals {
  const totals = emptyTotals();
  for (const row of rows) add(totals, row);
  return totals;
}

/** Groups sorted by saved tokens, largest first, ties by key, so output is deterministic. */
function groupBy(rows: readonly GroupedRow[], keyOf: (row: GroupedRow) => string): Group[] {
  const groups = new Map<string, Totals>();
  for (const row of rows) {
    const key = keyOf(row);
    let totals = groups.get(key);
    if (totals === undefined) groups.set(key, (totals = emptyTotals()));
    add(totals, row);
  }
  return [...groups.entries()]
    .map(([key, totals]) => ({ key, ...totals }))
    .sort((a, b) => b.savedTokens - a.savedTokens || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export const ListedRow = z.object({
  id: z.number(),
  ts: z.number(),
  lifecycle: z.string(),
  operation: z.string(),
  session_id: z.string(),
  tool_use_id: z.nullable(z.string()),
  tool_name: z.nullable(z.string()),
  mode: z.string(),
  recoverability: z.string(),
  before_tokens: z.number(),
  after_tokens: z.number(),
  saved_tokens: z.number(),
  token_method: z.string(),
});
export type ListedRow = z.infer<typeof ListedRow>;

/** The latest records, newest first, without texts; saved tokens already capped at what the host shows. */
export function listRecords(db: SqlDatabase, limit: number, session?: string): ListedRow[] {
  const where = session === undefined ? '' : 'WHERE session_id = @session';
  const raw = db
    .prepare(
      `SELECT id, ts, lifecycle, operation, session_id, tool_use_id, tool_name, mode, recoverability,
              ${BEFORE} AS before_tokens, ${AFTER} AS after_tokens,
              ${BEFORE} - ${AFTER} AS saved_tokens, token_method
       FROM operations ${where} ORDER BY id DESC LIMIT @limit`,
    )
    .all(session === undefined ? { limit } : { limit, session });
  return z.array(ListedRow).parse(raw);
}

const RecordFigures = z.object({ before_tokens: z.number(), after_tokens: z.number(), raw_before_tokens: z.number(), raw_after_tokens: z.number(), host_capped: z.number() });
export type RecordFigures = z.infer<typeof RecordFigures>;

/** One record's figures as `stats list` and `stats summary` count them (the same SQL), with the stored ones. */
export function recordFigures(db: SqlDatabase, id: number): RecordFigures | null {
  const raw: unknown = db
    .prepare(
      `SELECT ${BEFORE} AS before_tokens, ${AFTER} AS after_tokens, before_tokens AS raw_before_tokens, after_tokens AS raw_after_tokens,
              ((lifecycle = 'run' OR tool_name = 'Bash') AND before_bytes > ${HOST_SHOWN_CHARS}) AS host_capped
       FROM operations WHERE id = ?`,
    )
    .get(id);
  return raw === undefined ? null : RecordFigures.parse(raw);
}

export interface Comparison {
  readonly baseline: { readonly session: string; readonly totals: Totals; readonly byOperation: Group[] };
  readonly session: { readonly session: string; readonly totals: Totals; readonly byOperation: Group[] };
}

/** A dry-run baseline session against an active one, within the latest `limit` rows. */
export function compareSessions(db: SqlDatabase, baseline: string, session: string, limit = DEFAULT_LIMIT): Comparison {
  const of = (id: string) => {
    const byOperation = operationsOf(db, id, limit);
    const totals = emptyTotals();
    for (const group of byOperation) {
      for (const field of TOTAL_FIELDS) totals[field] += group[field];
    }
    return { session: id, totals, byOperation };
  };
  return { baseline: of(baseline), session: of(session) };
}

const TOTAL_FIELDS: readonly (keyof Totals)[] = [
  'records', 'rawBeforeTokens', 'beforeTokens', 'afterTokens', 'savedTokens', 'beforeBytes', 'afterBytes', 'hostCapped', 'estimated',
];

function operationsOf(db: SqlDatabase, session: string, limit: number): Group[] {
  const rows = z.array(GroupedRow).parse(
    db
      .prepare(
        `WITH recent AS (SELECT * FROM (SELECT id, ts, lifecycle, operation, session_id, tool_name, mode, before_bytes,
                after_bytes, before_tokens, after_tokens, token_method FROM operations ORDER BY id DESC LIMIT @limit)
                WHERE session_id = @session)
         SELECT operation, NULL AS tool_name, '' AS lifecycle, '' AS session, 0 AS day, mode, ${SUMS}
         FROM recent GROUP BY operation, mode`,
      )
      .all({ session, limit }),
  );
  return groupBy(rows, (row) => row.operation);
}

const SavingRow = z.object({ ts: z.number(), session_id: z.string(), tool: z.string(), saved_tokens: z.number() });
export type SavingRow = z.infer<typeof SavingRow>;

/** Per-record savings of active rows (for pricing: each record is priced by its session's model and later requests). */
export function savingRows(db: SqlDatabase, limit = DEFAULT_LIMIT, since = 0): SavingRow[] {
  const raw = db
    .prepare(
      `SELECT ts, session_id, tool, saved_tokens FROM (
         SELECT id, ts, session_id, COALESCE(tool_name, '(' || lifecycle || ')') AS tool,
                ${BEFORE} - ${AFTER} AS saved_tokens, mode
         FROM operations WHERE ts >= @since ORDER BY id DESC LIMIT @limit) WHERE mode = 'active' ORDER BY ts`,
    )
    .all({ limit, since });
  return z.array(SavingRow).parse(raw);
}
