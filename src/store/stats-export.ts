/**
 * What telemetry reads from stats.db (issue 26): operations and retrievals grouped by the columns an exported attribute
 * may come from, over an id range, so a scrape reads the whole file in one grouped pass and an export reads only what
 * is past its watermark. No column that can hold a command line, path or output is selected (project, tool_name,
 * stash keys, digests stay in the file); the program name of a retrieval is read and classed by src/telemetry/.
 */
import * as z from 'zod/mini';
import { AFTER, BEFORE } from './stats-query.ts';
import type { SqlDatabase } from './sqlite.ts';

export const OperationGroup = z.object({
  agent_id: z.string(),
  lifecycle: z.string(),
  content_type: z.nullable(z.string()),
  session_id: z.string(),
  records: z.number(),
  before_tokens: z.number(),
  after_tokens: z.number(),
  first_ts: z.number(),
  last_ts: z.number(),
});
export type OperationGroup = z.infer<typeof OperationGroup>;

export const RetrievalGroup = z.object({
  session_id: z.string(),
  kind: z.string(),
  view_kind: z.nullable(z.string()),
  program: z.nullable(z.string()),
  records: z.number(),
  printed_tokens: z.number(),
  first_ts: z.number(),
  last_ts: z.number(),
});
export type RetrievalGroup = z.infer<typeof RetrievalGroup>;

/** An id range, both ends inclusive. */
export interface IdRange {
  readonly from: number;
  readonly to: number;
}

export const ALL_IDS: IdRange = { from: 0, to: Number.MAX_SAFE_INTEGER };

/** Active operations only: dry-run rows saved nothing, as `stats summary` counts them. */
export function operationGroups(db: SqlDatabase, range: IdRange = ALL_IDS): OperationGroup[] {
  return z.array(OperationGroup).parse(
    db
      .prepare(
        `SELECT agent_id, lifecycle, content_type, session_id, COUNT(*) AS records,
                SUM(${BEFORE}) AS before_tokens, SUM(${AFTER}) AS after_tokens, MIN(ts) AS first_ts, MAX(ts) AS last_ts
         FROM operations WHERE mode = 'active' AND id BETWEEN ? AND ? GROUP BY 1, 2, 3, 4`,
      )
      .all(range.from, range.to),
  );
}

export function retrievalGroups(db: SqlDatabase, range: IdRange = ALL_IDS): RetrievalGroup[] {
  return z.array(RetrievalGroup).parse(
    db
      .prepare(
        `SELECT session_id, kind, view_kind, program, COUNT(*) AS records, SUM(printed_tokens) AS printed_tokens,
                MIN(ts) AS first_ts, MAX(ts) AS last_ts
         FROM retrievals WHERE id BETWEEN ? AND ? GROUP BY 1, 2, 3, 4`,
      )
      .all(range.from, range.to),
  );
}

export type ExportTable = 'operations' | 'retrievals';

/** The last id of a table already exported (0: none); the table comes from stats.db migration 5. */
export function watermark(db: SqlDatabase, table: ExportTable): number {
  const id: unknown = db.prepare('SELECT last_id FROM export_watermarks WHERE source = ?').pluck().get(table);
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : 0;
}

/** The next range past the watermark, at most `batch` ids long; null when nothing is pending. */
export function pendingRange(db: SqlDatabase, table: ExportTable, batch: number): IdRange | null {
  const from = watermark(db, table) + 1;
  const to: unknown = db.prepare(`SELECT id FROM ${table} WHERE id >= ? ORDER BY id LIMIT 1 OFFSET ?`).pluck().get(from, batch - 1);
  const last: unknown = db.prepare(`SELECT MAX(id) FROM ${table}`).pluck().get();
  if (typeof last !== 'number' || last < from) return null;
  return { from, to: typeof to === 'number' ? to : last };
}

/** Moves the watermark to the end of a range the collector accepted, and notes when. */
export function advanceWatermark(db: SqlDatabase, table: ExportTable, to: number, now: number): void {
  db.prepare(
    `INSERT INTO export_watermarks (source, last_id, exported_at) VALUES (?, ?, ?)
     ON CONFLICT (source) DO UPDATE SET last_id = MAX(last_id, excluded.last_id), exported_at = excluded.exported_at`,
  ).run(table, to, now);
}

/** The settings key of the last accepted export of the hook-call log, which has no ids and so no watermark row. */
const HOOK_CALLS_EXPORTED_AT = 'hook_calls_exported_at';

/** An accepted export of the hook-call log: only its time, for `syt doctor`. */
export function noteHookCallsExport(db: SqlDatabase, now: number): void {
  db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(HOOK_CALLS_EXPORTED_AT, String(now));
}

/** Epoch ms of the last accepted export (stats rows or hook calls); null when none. */
export function lastExport(db: SqlDatabase): number | null {
  const rows: unknown = db.prepare('SELECT MAX(exported_at) FROM export_watermarks').pluck().get();
  const hooks = Number(db.prepare('SELECT value FROM settings WHERE key = ?').pluck().get(HOOK_CALLS_EXPORTED_AT) ?? 0);
  const at = Math.max(typeof rows === 'number' ? rows : 0, Number.isFinite(hooks) ? hooks : 0);
  return at > 0 ? at : null;
}
