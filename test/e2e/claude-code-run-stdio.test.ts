/**
 * `tokenless run` under the real Claude Code client (2.1.332): a Bash command's fds 1 and 2 are one task output file
 * Claude Code created (FINDINGS.md), which the wrapper must recognise as the agent's, while a file the line itself
 * redirected to must get the program's raw output (issue 15, items 3 and 4).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { GIT_ENV } from '../helpers/fixture-repo.ts';
import { startFakeAnthropic } from './claude/fake-anthropic.ts';
import { claudeBinary, runClaude, seenResults, sessionDirs, sessionEnv, type SeenResult, type SessionDirs } from './claude/session.ts';

const CLAUDE = claudeBinary();
if (CLAUDE === null) console.warn('claude-code-run-stdio: Claude Code is not installed; run `bash scripts/install-claude-code.sh` (skipping)');

// The fd 3 line differs in its arguments from the first: a re-run of a line just viewed is shown raw (rerun.ts).
const COMMANDS = ['git status', 'exec >out.txt; git status; echo rc=$?', 'exec 3>fd3.txt; GIT_TRACE=3 git status --untracked-files=all'] as const;

describe.skipIf(CLAUDE === null)('tokenless run under the real Claude Code client', () => {
  let dirs: SessionDirs;
  let results: SeenResult[] = [];
  beforeAll(async () => {
    dirs = sessionDirs(mkdtempSync(join(tmpdir(), 'tokenless-claude-run-')));
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dirs.work, env: { ...process.env, ...GIT_ENV } });
    // Enough untracked files for the git status filter to shorten the listing, and for more than the launcher's
    // TOKENLESS_RUN_VIEW_MIN_BYTES (1 KiB): below that the raw output stays and Node never starts.
    for (let i = 0; i < 90; i++) writeFileSync(join(dirs.work, `file-${i}.txt`), `${i}\n`);
    const server = await startFakeAnthropic([...COMMANDS.map((command) => ({ tools: [{ name: 'Bash', input: { command, description: 'step' } }] })), { text: 'done' }]);
    try {
      const init = runCli(['init'], { cwd: dirs.work, env: { HOME: dirs.home, CLAUDE_CONFIG_DIR: join(dirs.home, '.claude'), TOKENLESS_DATA_DIR: dirs.data } });
      expect(init.status, init.stderr).toBe(0);
      const run = await runClaude(CLAUDE ?? '', dirs, sessionEnv(dirs, server.url), ['--dangerously-skip-permissions']);
      expect(run.status, run.stderr).toBe(0);
      results = seenResults(server.requests);
    } finally {
      await server.close();
    }
  }, 240_000);
  afterAll(() => rmSync(dirs.root, { recursive: true, force: true }));

  const seen = (command: string): string => results.find((result) => result.input['command'] === command)?.content ?? '';

  it("filters output that goes to Claude Code's own task file", () => {
    expect(seen('git status')).toMatch(/untracked 9\d:/);
  });

  it('writes the raw output into a file the line redirected stdout to, and nothing into the view', () => {
    expect(readFileSync(join(dirs.work, 'out.txt'), 'utf8')).toMatch(/^On branch main\n\nNo commits yet\n\nUntracked files:\n/);
    expect(readFileSync(join(dirs.work, 'out.txt'), 'utf8')).toMatch(/rc=0\n$/);
    expect(seen('exec >out.txt; git status; echo rc=$?')).not.toMatch(/On branch/);
  });

  it('hands fd 3 on to the program', () => {
    // GIT_TRACE=3: git writes its trace to fd 3.
    expect(readFileSync(join(dirs.work, 'fd3.txt'), 'utf8')).toMatch(/trace: built-in: git status/);
    expect(seen('exec 3>fd3.txt; GIT_TRACE=3 git status --untracked-files=all')).toMatch(/untracked 9\d:/);
  });
});
