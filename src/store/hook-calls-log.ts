/**
 * The hook-call log (issue 26): one line per `tokenless hook` process while telemetry is on, appended with O_APPEND
 * (one write of under 200 bytes, atomic against other hooks appending), read only by `tokenless stats export`. The
 * exporter claims the log by renaming it, so hooks that start afterwards write a new one; a claimed file is deleted
 * only once the collector accepted it, so a collector that is down loses nothing and the next export sends it.
 */
import { closeSync, constants, fstatSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from './data-dir.ts';

const LOG = 'hook-calls.jsonl';
const CLAIMED = /^hook-calls\.\d+-\d+\.claimed$/;
/** About 200,000 calls: past this, hooks stop appending until an export claims the log (a cron that stopped). */
export const HOOK_CALLS_MAX_BYTES = 32 * 1024 * 1024;

/** Appends one line; never throws (a hook's answer matters more than its timing). */
export function appendHookCall(dataDir: string, line: string): void {
  const path = join(dataDir, LOG);
  let fd: number;
  try {
    fd = openLog(path);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') return;
    try {
      ensurePrivateDir(dataDir);
      fd = openLog(path);
    } catch {
      return;
    }
  }
  try {
    if (fstatSync(fd).size < HOOK_CALLS_MAX_BYTES) writeSync(fd, line);
  } catch {
    // A full disk or a read-only data dir: the call goes unrecorded.
  } finally {
    closeSync(fd);
  }
}

function openLog(path: string): number {
  return openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
}

/**
 * Renames the current log aside and returns every claimed file, oldest first (earlier exports' unsent files too).
 * A hook that opened the log just before the rename may still append to the claimed file; the exporter reads it
 * after `settleMs` for that reason.
 */
export function claimHookCalls(dataDir: string, now: number): string[] {
  try {
    renameSync(join(dataDir, LOG), join(dataDir, `hook-calls.${now}-${process.pid}.claimed`));
  } catch {
    // No log (nothing recorded since the last export), or no data dir.
  }
  try {
    return readdirSync(dataDir)
      .filter((name) => CLAIMED.test(name))
      .sort((a, b) => Number(a.split(/[.-]/)[1]) - Number(b.split(/[.-]/)[1]))
      .map((name) => join(dataDir, name));
  } catch {
    return [];
  }
}

/** Past the cap, hooks that opened the log before it was reached may each still append one line. */
const CLAIMED_MAX_BYTES = HOOK_CALLS_MAX_BYTES + 1024 * 1024;

/**
 * A claimed file's text: a regular file (a link is not followed), within its bound; null otherwise (it is then left
 * for the next export, and a person can see it in the data dir).
 */
export function readClaimed(path: string): string | null {
  let fd: number | null = null;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > CLAIMED_MAX_BYTES) return null;
    return readFileSync(fd, 'utf8');
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Called once the collector accepted what the file held. */
export function releaseClaimed(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
