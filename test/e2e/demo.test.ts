/** `syt demo`, the README's first command: real bundled outputs, shorter, every stashed original read back exactly. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();

interface DemoRow {
  id: string;
  operation: string | null;
  beforeTokens: number;
  afterTokens: number;
  retrievedExactly: boolean;
}

describe('syt demo', () => {
  it('--json: every case is shorter or unchanged, never longer, and every stash reads back byte-exact', () => {
    const home = tempDir();
    const result = runCli(['demo', '--json'], { env: { HOME: home, TOKENLESS_DATA_DIR: `${home}/data` } });
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout) as { token_method: string; cases: DemoRow[] };
    expect(report.token_method).toBe('o200k');
    expect(report.cases.length).toBeGreaterThanOrEqual(8);
    for (const row of report.cases) {
      expect(row.afterTokens, row.id).toBeLessThanOrEqual(row.beforeTokens);
      expect(row.retrievedExactly, row.id).toBe(true);
    }
    expect(report.cases.filter((row) => row.operation !== null).length).toBeGreaterThanOrEqual(6);
  });

  it('prints a retrieval command that works as printed: it names its session and its stash stays (demo retrieval line does not work regression)', () => {
    const home = tempDir();
    const env = { HOME: home, TOKENLESS_DATA_DIR: `${home}/data` };
    const report = JSON.parse(runCli(['demo', '--json'], { env }).stdout) as { retrieve: string; data_dir: string; session: string };
    expect(report.session).toBe('demo');
    expect(report.data_dir).toBe(`${home}/data/demo`);
    // Run exactly as printed, in a shell with none of the demo's environment, after the demo has exited.
    const shell = spawnSync('/bin/sh', ['-c', report.retrieve], { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home }, encoding: 'utf8' });
    expect(shell.stderr).toBe('');
    expect(shell.status).toBe(0);
    expect(shell.stdout).toMatch(/^On branch master\n/u);
    const text = runCli(['demo'], { env }).stdout;
    expect(text).toContain(`rm -rf ${report.data_dir}`);
    expect(text).toMatch(/retrieve \d{29}.* --session demo/su);
  });

  it('renders the table and never touches the user\'s stats or stash', () => {
    const home = tempDir();
    const result = runCli(['demo'], { env: { HOME: home, TOKENLESS_DATA_DIR: `${home}/data` } });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/save-your-tokens demo/);
    expect(result.stdout).toMatch(/total\s+[\d,]+\s+[\d,]+\s+\d+\.\d%/);
    expect(result.stdout).toContain('What the agent sees for `git status`');
    expect(runCli(['stats', 'status', '--json'], { env: { HOME: home, TOKENLESS_DATA_DIR: `${home}/data` } }).stdout).toMatch(/"records":0/);
  });
});
