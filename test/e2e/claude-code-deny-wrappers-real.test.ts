/**
 * Issue 30, item 4, against the real Claude Code client (2.1.332): with `Bash(git push:*)` denied, the client denies
 * `timeout 60 git push …`, `nice git push …`, `env … git push …` itself, but not once our wrapper is in front of them.
 * So our pre_tool must leave every line a deny rule may cover untouched. One client session in bypassPermissions mode
 * (where everything not denied runs), our hooks installed by `syt init`, a bare repository as origin: a push that ran
 * would leave a branch there.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { GIT_ENV } from '../helpers/fixture-repo.ts';
import { startFakeAnthropic } from './claude/fake-anthropic.ts';
import { preToolAnswers } from './claude/hook-answers.ts';
import { claudeBinary, runClaude, sessionDirs, sessionEnv } from './claude/session.ts';

const CLAUDE = claudeBinary();
if (CLAUDE === null) console.warn('claude-code-deny-wrappers-real: Claude Code is not installed; run `bash scripts/install-claude-code.sh` (skipping)');

const DENIED = [
  'timeout 60 git push origin main',
  'nice git push origin main',
  'nice -n 5 git push origin main',
  'env GIT_TRACE=0 git push origin main',
  'timeout -s KILL 30 nice git push origin main',
];
const RUNS = ['git status', 'timeout 60 git log --oneline -1'];
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

describe.skipIf(CLAUDE === null)('real Claude Code: a deny rule still denies through timeout/nice/env with our hooks installed', () => {
  it('denies every wrapped git push, runs the rest, and our hook rewrites none of the denied lines', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tokenless-deny-wrappers-'));
    made.push(root);
    const dirs = sessionDirs(root);
    const remote = join(root, 'remote.git');
    const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' });
    mkdirSync(remote);
    git(remote, 'init', '-q', '--bare');
    writeFileSync(join(dirs.work, 'README.md'), '# demo\n');
    mkdirSync(join(dirs.work, '.claude'));
    writeFileSync(join(dirs.work, '.claude', 'settings.json'), `${JSON.stringify({ permissions: { deny: ['Bash(git push:*)'] } })}\n`);
    git(dirs.work, 'init', '-q', '-b', 'main');
    git(dirs.work, 'add', '-A');
    git(dirs.work, 'commit', '-q', '-m', 'initial');
    git(dirs.work, 'remote', 'add', 'origin', remote);

    const lines = [...DENIED, ...RUNS];
    const server = await startFakeAnthropic([{ tools: lines.map((command) => ({ name: 'Bash', input: { command, description: 'step', timeout: 20_000 } })) }, { text: 'done' }]);
    try {
      const env = sessionEnv(dirs, server.url);
      const init = runCli(['init'], { cwd: dirs.work, env: { HOME: dirs.home, CLAUDE_CONFIG_DIR: env['CLAUDE_CONFIG_DIR'] ?? '', TOKENLESS_DATA_DIR: dirs.data } });
      expect(init.status, init.stderr).toBe(0);
      const run = await runClaude(CLAUDE ?? '', dirs, env, ['--permission-mode', 'bypassPermissions'], 240_000);
      expect(run.status, run.stderr.slice(0, 2000)).toBe(0);
      const result = JSON.parse(run.stdout) as { permission_denials?: { tool_use_id?: string; tool_input?: { command?: string } }[] };
      const denied = (result.permission_denials ?? []).map((denial) => denial.tool_input?.command);
      expect(denied.sort()).toEqual([...DENIED].sort());

      // Our hook's answer per call: nothing for a denied line (no rewrite the client would no longer deny).
      const answers = preToolAnswers(join(dirs.home, '.claude'));
      const calls = (server.requests.at(-1)?.body?.messages ?? [])
        .flatMap((message) => (Array.isArray(message.content) ? (message.content as Record<string, unknown>[]) : []))
        .filter((block) => block['type'] === 'tool_use')
        .map((block) => ({ command: String((block['input'] as { command?: unknown }).command), answer: answers.get(String(block['id'])) ?? 'none' }));
      expect(calls.filter((call) => DENIED.includes(call.command)).map((call) => call.answer)).toEqual(DENIED.map(() => 'none'));
      // The hooks ran: the lines no rule covers were rewritten with "allow" (bypass mode).
      expect(calls.filter((call) => RUNS.includes(call.command)).map((call) => call.answer)).toEqual(RUNS.map(() => 'allow'));
      // Nothing reached the remote.
      expect(git(remote, 'branch', '--list')).toBe('');
    } finally {
      await server.close();
    }
  }, 300_000);
});
