/**
 * One exporter per data dir at a time (issue 26): `tokenless stats export` from cron, the interval export of
 * `tokenless serve` and of the gateway may overlap, and two of them would read the same pending rows and claimed
 * hook-call files and send them twice. The lock is a file created exclusively, holding its owner's pid; a lock whose
 * owner is gone, or that is older than any export can take, is stale and taken over.
 */
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from './data-dir.ts';

/** Longer than an export of a large backlog; a lock this old was left by a process that hung or was stopped. */
const STALE_MS = 15 * 60 * 1000;

export function takeExportLock(dataDir: string, now = Date.now()): { release(): void } | null {
  ensurePrivateDir(dataDir);
  const path = join(dataDir, 'export.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return { release: () => unlinkQuietly(path) };
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST' || !isStale(path, now)) return null;
      unlinkQuietly(path);
    }
  }
  return null;
}

function isStale(path: string, now: number): boolean {
  try {
    if (now - statSync(path).mtimeMs > STALE_MS) return true;
    const pid = Number(readFileSync(path, 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return true;
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // ESRCH: no such process. EPERM: it exists (another user's), so the lock holds.
    return (error as { code?: unknown }).code !== 'EPERM';
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
