import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
// Where the data dir is comes from config (src/config/data-dir.ts); this file only makes it private.

/** Creates the data dir with mode 0700 and narrows an existing one we own: stashed originals may hold secrets. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = statSync(dir);
  if ((stat.mode & 0o077) !== 0 && stat.uid === process.getuid?.()) chmodSync(dir, 0o700);
}

/** Pre-creates a database file as 0600 so SQLite (and its -wal/-shm siblings, which copy its mode) stay private. */
export function ensurePrivateFile(path: string): void {
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  const stat = statSync(path);
  if ((stat.mode & 0o077) !== 0 && stat.uid === process.getuid?.()) chmodSync(path, 0o600);
}
