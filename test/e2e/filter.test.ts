import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { loadCorpusCase } from '../helpers/fixtures.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();

interface FilterJson {
  output: string;
  filter: string | null;
  stash_keys: string[];
  disposition: string;
  reason?: string;
}

function filter(line: string, caseId: string, env: Record<string, string>): FilterJson {
  const captured = loadCorpusCase(caseId);
  const result = runCli(['filter', '--command', line, '--exit-code', String(captured.exitCode), '--json'], { input: captured.stdoutBytes, env });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as FilterJson;
}

describe('tokenless filter takes any line pre_tool would rewrite, as typed', () => {
  it('views `cd x && git status`, a glob, a pipeline; passes `make clean && make` and untouched lines unchanged', () => {
    const env = { TOKENLESS_DATA_DIR: tempDir(), TOKENLESS_SESSION_ID: 'filter-e2e' };
    const status = filter('cd x && git status -u', 'git-status-untracked-all-express', env);
    expect(status.filter).toBe('git-status');
    expect(status.output.length).toBeLessThan(loadCorpusCase('git-status-untracked-all-express').stdout.length);
    for (const key of status.stash_keys) {
      const got = runCli(['retrieve', key], { env });
      expect(got.stdoutBytes.equals(loadCorpusCase('git-status-untracked-all-express').stdoutBytes)).toBe(true);
    }
    expect(filter('du -sh *', 'fs-du-sh-express', env).reason).toBeUndefined();
    expect(filter('find . -type f | head -300', 'fs-find-type-f-head-express', env).reason).toBeUndefined();
    const make = filter('make clean && make', 'build-make-cjson', env);
    expect(make.reason).toMatch(/several wrapped segments print/);
    expect(make.output).toBe(loadCorpusCase('build-make-cjson').stdout);
    // Plain output mode: a line pre_tool leaves alone prints its stdin unchanged.
    const echo = runCli(['filter', '--command', 'echo "$(git status)"'], { input: 'hello\n', env });
    expect(echo.status).toBe(0);
    expect(echo.stdout).toBe('hello\n');
  });
});
