/**
 * The one place that touches better-sqlite3: open a private database with WAL and a busy timeout, and run numbered
 * migrations. Everything else sees the small `SqlDatabase` surface, so `node:sqlite` could replace the driver later.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { ensurePrivateDir, ensurePrivateFile } from './data-dir.ts';
import { bundledDriver, type SqliteDriver } from './sqlite-driver.ts';

export type SqlDatabase = BetterSqlite3.Database;

/** A schema change: applied once, in order, inside an immediate transaction. */
export interface Migration {
  readonly version: number;
  readonly sql: string;
}

/** How long a writer waits for another process's lock before SQLITE_BUSY: hooks run concurrently. */
export const BUSY_TIMEOUT_MS = 5_000;

const require = createRequire(import.meta.url);

/** Set by the single executable's launcher (sea/launch.mjs): it has no node_modules, and verifies the addon first. */
const SEA_SQLITE = Symbol.for('tokenless.sea.sqlite');

let driver: SqliteDriver | undefined;

/** Loaded on first use only (a pre_tool decision never pays for the native addon), once per process. */
function loadDriver(): SqliteDriver {
  if (driver !== undefined) return driver;
  const fromBinary = (globalThis as Record<symbol, unknown>)[SEA_SQLITE];
  driver = typeof fromBinary === 'function' ? (fromBinary as () => SqliteDriver)() : (bundledDriver() ?? { Database: require('better-sqlite3') as typeof BetterSqlite3 });
  return driver;
}

export interface OpenOptions {
  readonly readonly?: boolean;
}

export function openDatabase(dataDir: string, file: string, migrations: readonly Migration[], options: OpenOptions = {}): SqlDatabase {
  const { Database, nativeBinding } = loadDriver();
  const path = join(dataDir, file);
  if (options.readonly !== true) {
    ensurePrivateDir(dataDir);
    ensurePrivateFile(path);
  }
  const db = new Database(path, { readonly: options.readonly === true, fileMustExist: options.readonly === true, nativeBinding });
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (options.readonly !== true) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      migrate(db, migrations);
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

export function schemaVersion(db: SqlDatabase): number {
  const value: unknown = db.pragma('user_version', { simple: true });
  return typeof value === 'number' ? value : 0;
}

/** Applies pending migrations; re-reads the version under the write lock so racing processes apply each once. */
export function migrate(db: SqlDatabase, migrations: readonly Migration[]): void {
  const latest = migrations.at(-1)?.version ?? 0;
  if (schemaVersion(db) >= latest) return;
  db.transaction(() => {
    const current = schemaVersion(db);
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }
  }).immediate();
}
