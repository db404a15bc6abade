/**
 * The source of dist/sqlite.cjs (scripts/build.mjs): better-sqlite3's JavaScript in one file, which the CLI loads
 * through a V8 code cache (commands/main.ts), and the addon named by path. Loaded from node_modules, a hook call that
 * stashed a view spent about 10 ms resolving, reading and compiling the driver's dozen files, and about 3 ms in
 * `bindings` searching for the addon (measured in process with `node -r` timing, 2026-12-04). It is a file of its own,
 * not part of hook.cjs: V8 deserialises a whole code cache, so every hook call would pay for the driver's functions.
 *
 * The JavaScript must match the addon it drives: the addon is taken only from an installed better-sqlite3 of the very
 * version bundled (package.json pins it), where its install builds it; anything else answers null, and
 * ./sqlite.ts loads the installed package as it is.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { SqliteDriver } from './sqlite-driver.ts';

export function bundledDriver(): SqliteDriver | null {
  const manifest = createRequire(import.meta.url).resolve('better-sqlite3/package.json');
  const installed: unknown = (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown }).version;
  // A literal require is bundled by esbuild, so these two are the bundled package, not node_modules'.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const bundled = (require('better-sqlite3/package.json') as { version: string }).version;
  const addon = join(dirname(manifest), 'build', 'Release', 'better_sqlite3.node');
  if (installed !== bundled || !existsSync(addon)) return null;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return { Database: require('better-sqlite3') as SqliteDriver['Database'], nativeBinding: addon };
}
