import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './root.ts';

export const CLI = join(ROOT, 'dist', 'cli.cjs');

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stdoutBytes: Buffer;
  readonly stderr: string;
}

/** Spawns the built CLI with a hermetic environment (fixed TZ, no colour, given data dir). */
export function runCli(args: readonly string[], options: { input?: string | Buffer; env?: Record<string, string>; cwd?: string } = {}): CliResult {
  if (!existsSync(CLI)) throw new Error('dist/cli.cjs is missing: run `npm run build` (npm test does it first)');
  const result = spawnSync(process.execPath, [CLI, ...args], {
    input: options.input ?? '',
    cwd: options.cwd ?? ROOT,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: process.env['HOME'] ?? '/tmp', TZ: 'UTC', NO_COLOR: '1', COLUMNS: '120', ...options.env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status, stdout: result.stdout.toString('utf8'), stdoutBytes: result.stdout, stderr: result.stderr.toString('utf8') };
}
