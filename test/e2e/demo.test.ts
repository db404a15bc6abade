/** `syt demo`, the README's first command: real bundled outputs, shorter, every stashed original read back exactly. */
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

  it('renders the table and never touches the user data dir', () => {
    const home = tempDir();
    const result = runCli(['demo'], { env: { HOME: home, TOKENLESS_DATA_DIR: `${home}/data` } });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/save-your-tokens demo/);
    expect(result.stdout).toMatch(/total\s+[\d,]+\s+[\d,]+\s+\d+\.\d%/);
    expect(result.stdout).toContain('What the agent sees for `git status`');
    expect(runCli(['stats', 'status', '--json'], { env: { HOME: home, TOKENLESS_DATA_DIR: `${home}/data` } }).stdout).toMatch(/"records":0/);
  });
});
