/**
 * The export at a session's end (issue 26): `stats export --otlp` in its own process group, detached, its stdio
 * closed, so the agent never waits on a collector; bounded by `--within`, and what it does not send stays pending for
 * the next export. A spawn that fails is ignored: the next export sends the same records.
 */
import { spawn } from 'node:child_process';
import { isSingleExecutable } from '../src/shell/wrapper-command.ts';

/** Long enough for a day's backlog to a collector that answers; short enough that a hung one leaves no stray process. */
export const SESSION_END_EXPORT_S = 60;

export function startDetachedExport(): void {
  const args = ['stats', 'export', '--otlp', '--within', String(SESSION_END_EXPORT_S)];
  const script = process.argv[1];
  const single = isSingleExecutable();
  if (!single && script === undefined) return;
  try {
    const child = spawn(process.execPath, single || script === undefined ? args : [script, ...args], { detached: true, stdio: 'ignore', env: process.env });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // Nothing to do: the records stay pending.
  }
}
