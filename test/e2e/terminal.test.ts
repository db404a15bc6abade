/**
 * What a person at a terminal sees: `run` passes through with a one-line hint, `dashboard` writes a file instead of
 * dumping HTML, slow commands show progress on stderr. A pseudo-terminal comes from util-linux `script`; the piped
 * side (no hint, no progress) is checked everywhere.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.ts';
import { ROOT } from '../helpers/root.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();
const SCRIPT = ['/usr/bin/script', '/bin/script'].find((path) => existsSync(path)) ?? null;
const TRANSCRIPT = join(ROOT, 'test', 'fixtures', 'transcripts', 'claude-code', '1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl');

/** Runs the CLI with stdin, stdout and stderr on a pseudo-terminal; returns what the terminal showed. */
function inTerminal(args: readonly string[], env: Record<string, string>): { status: number | null; screen: string } {
  const line = [process.execPath, CLI, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  const result = spawnSync(SCRIPT ?? 'script', ['-qec', line, '/dev/null'], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', TZ: 'UTC', NO_COLOR: '1', ...env } });
  return { status: result.status, screen: result.stdout };
}

it.runIf(SCRIPT === null)('skips the terminal tests: util-linux `script` is not installed (apt-get install bsdutils)', () => {
  console.warn('terminal: /usr/bin/script not found; pseudo-terminal tests skipped. Install util-linux/bsdutils.');
});

describe.skipIf(SCRIPT === null)('at a terminal (pseudo-terminal via script)', () => {
  it('`tokenless run -- echo hello` passes through and adds nothing: the wrapper does not show in what is read (issue 30 item 14)', () => {
    const home = tempDir();
    const { status, screen } = inTerminal(['run', '--', 'echo', 'hello'], { HOME: home, TOKENLESS_DATA_DIR: join(home, 'data') });
    expect(status).toBe(0);
    expect(screen).toMatch(/^hello\r?\n$/);
  });

  it('`syt dashboard` writes a file and prints its path instead of HTML', () => {
    const home = tempDir();
    const data = join(home, 'data');
    const { status, screen } = inTerminal(['dashboard'], { HOME: home, TOKENLESS_DATA_DIR: data, CLAUDE_CONFIG_DIR: join(home, 'none') });
    expect(status).toBe(0);
    expect(screen).not.toContain('<html');
    expect(screen).toContain(`wrote ${join(data, 'dashboard.html')}`);
    expect(readFileSync(join(data, 'dashboard.html'), 'utf8')).toMatch(/^<!doctype html>/i);
  });

  it('`syt analyze --log` shows progress on the terminal and erases it', () => {
    const home = tempDir();
    const { status, screen } = inTerminal(['analyze', '--log', TRANSCRIPT], { HOME: home, TOKENLESS_DATA_DIR: join(home, 'data'), COLUMNS: '100' });
    expect(status).toBe(0);
    expect(screen).toMatch(/\r\x1b\[Kreading transcripts 1\/1/);
    expect(screen).toMatch(/\r\x1b\[Kreplaying tool calls through our hooks \d+\/\d+/);
  });
});

describe('piped', () => {
  it('no hint and no progress on stderr', () => {
    const home = tempDir();
    const env = { HOME: home, TOKENLESS_DATA_DIR: join(home, 'data') };
    expect(runCli(['run', '--', 'echo', 'hello'], { env }).stderr).toBe('');
    const analyze = runCli(['analyze', '--log', TRANSCRIPT], { env });
    expect(analyze.status).toBe(0);
    expect(analyze.stderr).toBe('');
  });
});
