/**
 * Where better-sqlite3 comes from, apart from the single executable (sea/launch.mjs hands over its own). For its hot
 * paths (`hook`, `run`), the CLI's entry registers a loader for dist/sqlite.cjs, the driver's JavaScript as one file
 * compiled through its own V8 code cache (./sqlite-driver-bundled.ts is that file's source). Elsewhere (the other
 * commands, the library, tests from source) nothing is registered, this answers null and ./sqlite.ts loads the
 * package from node_modules.
 */
import type BetterSqlite3 from 'better-sqlite3';

export interface SqliteDriver {
  readonly Database: typeof BetterSqlite3;
  /** The addon's path, when better-sqlite3 is not to look for it by itself. */
  readonly nativeBinding?: string;
}

/** The global the CLI's entry (commands/main.ts) puts the loader of dist/sqlite.cjs under. */
export const BUNDLED_DRIVER = Symbol.for('tokenless.sqlite.bundled');

export function bundledDriver(): SqliteDriver | null {
  const load = (globalThis as Record<symbol, unknown>)[BUNDLED_DRIVER];
  if (typeof load !== 'function') return null;
  try {
    return (load as () => SqliteDriver | null)();
  } catch {
    // A missing or damaged dist/sqlite.cjs: the installed package still works.
    return null;
  }
}
