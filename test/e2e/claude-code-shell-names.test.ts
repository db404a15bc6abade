/**
 * Aliases and functions through the real Claude Code client (2.1.332) and the shell snapshot it takes of the user's
 * `.bashrc` (issue 15, item 1): with `syt init`'s hooks, a command whose name is an alias or a function runs exactly
 * as without hooks, while a name that is a program on disk still runs through the wrapper.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { GIT_ENV } from '../helpers/fixture-repo.ts';
import { startFakeAnthropic } from './claude/fake-anthropic.ts';
import { claudeBinary, runClaude, seenResults, sessionDirs, sessionEnv, type SeenResult } from './claude/session.ts';

const CLAUDE = claudeBinary();
if (CLAUDE === null) console.warn('claude-code-shell-names: Claude Code is not installed; run `bash scripts/install-claude-code.sh` (skipping)');

const BASHRC = ["alias pytest='echo ALIASED pytest'", 'git() { echo "FUNCTION git $*"; }', ''].join('\n');
const COMMANDS = ['pytest -q', 'git status', 'ls -la'] as const;
const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function session(withHooks: boolean): Promise<{ results: SeenResult[] }> {
  const root = mkdtempSync(join(tmpdir(), 'tokenless-claude-names-'));
  made.push(root);
  const dirs = sessionDirs(root);
  writeFileSync(join(dirs.home, '.bashrc'), BASHRC);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dirs.work, env: { ...process.env, ...GIT_ENV } });
  for (let i = 0; i < 30; i++) writeFileSync(join(dirs.work, `file-${String(i).padStart(2, '0')}.txt`), `${i}\n`);
  const server = await startFakeAnthropic([...COMMANDS.map((command) => ({ tools: [{ name: 'Bash', input: { command, description: 'step' } }] })), { text: 'done' }]);
  try {
    if (withHooks) {
      const init = runCli(['init'], { cwd: dirs.work, env: { HOME: dirs.home, CLAUDE_CONFIG_DIR: join(dirs.home, '.claude'), TOKENLESS_DATA_DIR: dirs.data } });
      expect(init.status, init.stderr).toBe(0);
    }
    const run = await runClaude(CLAUDE ?? '', dirs, sessionEnv(dirs, server.url), ['--dangerously-skip-permissions']);
    expect(run.status, run.stderr).toBe(0);
    return { results: seenResults(server.requests) };
  } finally {
    await server.close();
  }
}

describe.skipIf(CLAUDE === null)('real Claude Code: the shell snapshot’s aliases and functions with our hooks', () => {
  it('runs the alias and the function as typed, and still filters a program', async () => {
    const baseline = await session(false);
    const ours = await session(true);
    // Without hooks the client's shell (its snapshot of .bashrc, removed when the session ends) runs them.
    expect(baseline.results[0]?.content).toBe('ALIASED pytest -q');
    expect(baseline.results[1]?.content).toBe('FUNCTION git status');
    expect(ours.results.slice(0, 2).map((r) => r.content)).toEqual(baseline.results.slice(0, 2).map((r) => r.content));
    // ls is a program: filtered (shorter, with a retrieval line).
    expect(ours.results[2]?.content.length).toBeLessThan(baseline.results[2]?.content.length ?? 0);
    expect(ours.results[2]?.content).toMatch(/tokenless retrieve/);
  }, 300_000);
});
