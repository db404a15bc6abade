/**
 * Which loopback ports a keep-warm gateway of ours listens on, as files in the data dir (`keep-warm/<port>`, holding
 * its pid): the SessionEnd hook tells a gateway a session ended only when one is there, so a base URL that points at
 * some other local proxy never receives our request.
 */
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = 'keep-warm';

export function registerKeepWarm(dataDir: string, port: number): void {
  try {
    mkdirSync(join(dataDir, DIR), { recursive: true, mode: 0o700 });
    writeFileSync(join(dataDir, DIR, String(port)), String(process.pid), { mode: 0o600 });
  } catch {
    // Without the file, SessionEnd is not passed on: pings then stop at the idle limit or the budget.
  }
}

export function unregisterKeepWarm(dataDir: string, port: number): void {
  try {
    unlinkSync(join(dataDir, DIR, String(port)));
  } catch {
    // Already gone.
  }
}

/** Whether a keep-warm gateway of ours, still running, registered this port. */
export function keepWarmOn(dataDir: string, port: string): boolean {
  if (!/^\d{1,5}$/.test(port)) return false;
  let pid: number;
  try {
    pid = Number(readFileSync(join(dataDir, DIR, port), 'utf8'));
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user; anything else: it is gone.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
