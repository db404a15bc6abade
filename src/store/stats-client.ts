/**
 * The read-only side of stats.db, used by `tokenless stats` and `syt dashboard`. Opens the same file the runtime
 * writes, read-only, so an audit can never change or lock out what it audits; enable/disable/clear are the only
 * writers here and say so in their names.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { openDatabase, schemaVersion, type SqlDatabase } from './sqlite.ts';
import { STATS_FILE, STATS_MIGRATIONS, StoredStatsRow, openStatsDb, setStatsEnabled } from './stats.ts';

/**
 * Opens stats.db read-only; null when nothing was recorded yet. Throws when the file is damaged. A file from an older
 * version is migrated first, once, by a writer (the one change an audit makes: it drops the texts older versions kept).
 */
export function openStatsReader(dataDir: string): SqlDatabase | null {
  if (!existsSync(join(dataDir, STATS_FILE))) return null;
  let db = openDatabase(dataDir, STATS_FILE, [], { readonly: true });
  if (schemaVersion(db) < (STATS_MIGRATIONS.at(-1)?.version ?? 0)) {
    db.close();
    openStatsDb(dataDir).close();
    db = openDatabase(dataDir, STATS_FILE, [], { readonly: true });
  }
  try {
    // Fails fast on a file that is not a stats database (garbage, truncated, another schema).
    db.prepare('SELECT id FROM operations LIMIT 1').all();
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** Runs `read` over a reader, or returns `empty` when there is no database yet; always closes. */
export function withStatsReader<T>(dataDir: string, empty: T, read: (db: SqlDatabase) => T): T {
  const db = openStatsReader(dataDir);
  if (db === null) return empty;
  try {
    return read(db);
  } finally {
    db.close();
  }
}

export function getRecord(db: SqlDatabase, id: number): StoredStatsRow | null {
  const raw: unknown = db.prepare('SELECT * FROM operations WHERE id = ?').get(id);
  if (raw === undefined) return null;
  return StoredStatsRow.parse(raw);
}

/** Rows of one session (optionally one tool use), oldest first, texts included: the input of a session chain. */
export function sessionRecords(db: SqlDatabase, session: string, toolUseId?: string, limit = 10_000): StoredStatsRow[] {
  const rows: unknown[] =
    toolUseId === undefined
      ? db.prepare('SELECT * FROM operations WHERE session_id = ? ORDER BY id LIMIT ?').all(session, limit)
      : db.prepare('SELECT * FROM operations WHERE session_id = ? AND tool_use_id = ? ORDER BY id LIMIT ?').all(session, toolUseId, limit);
  return z.array(StoredStatsRow).parse(rows);
}

/** Turns recording on or off for every process (a row in the settings table; the runtime reads it on open). */
export function writeEnabled(dataDir: string, enabled: boolean): void {
  const db = openStatsDb(dataDir);
  try {
    setStatsEnabled(db, enabled);
  } finally {
    db.close();
  }
}

/** Deletes every record, keeps the settings; returns how many went. */
export function clearRecords(dataDir: string): number {
  if (!existsSync(join(dataDir, STATS_FILE))) return 0;
  const db = openStatsDb(dataDir);
  try {
    const removed = db.prepare('DELETE FROM operations').run().changes;
    db.exec('VACUUM');
    return removed;
  } finally {
    db.close();
  }
}
