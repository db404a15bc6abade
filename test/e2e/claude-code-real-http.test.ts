/**
 * The real Claude Code client with `syt init --http` hooks served by `tokenless serve`, in the default permission
 * mode: a read-only command is rewritten and allowed through the HTTP hook, a command that would ask is left alone,
 * and with the server down every tool runs unchanged.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { GIT_ENV } from '../helpers/fixture-repo.ts';
import { startFakeAnthropic, type Turn } from './claude/fake-anthropic.ts';
import { startServe } from './claude/serve-process.ts';
import { claudeBinary, runClaude, seenResults, sessionDirs, sessionEnv, type SeenResult } from './claude/session.ts';

const CLAUDE = claudeBinary();
if (CLAUDE === null) console.warn('claude-code-real-http: Claude Code is not installed; run `bash scripts/install-claude-code.sh` (skipping)');
const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const bash = (command: string): Turn => ({ tools: [{ name: 'Bash', input: { command, description: 'step' } }] });
const SCRIPT = [bash('git status'), bash('curl -s http://127.0.0.1:9/none.json'), { text: 'done' }];

/** One session in the default permission mode; `serve` says whether the hook server is up. */
async function session(serve: boolean): Promise<{ results: SeenResult[]; status: number | null; stderr: string; records: number }> {
  const root = mkdtempSync(join(tmpdir(), 'tokenless-claude-http-'));
  made.push(root);
  const dirs = sessionDirs(root);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dirs.work });
  writeFileSync(join(dirs.work, 'README.md'), '# demo\n');
  execFileSync('git', ['add', '-A'], { cwd: dirs.work });
  execFileSync('git', ['commit', '-q', '-m', 'init'], { cwd: dirs.work, env: { ...process.env, ...GIT_ENV } });
  writeFileSync(join(dirs.work, 'README.md'), '# demo\nchanged\n');
  // Enough untracked files that git status prints more than 1 KiB: below that the wrapper leaves output raw.
  for (let i = 0; i < 90; i++) writeFileSync(join(dirs.work, `file-${i}.txt`), `${i}\n`);
  const fake = await startFakeAnthropic(SCRIPT);
  const env = sessionEnv(dirs, fake.url);
  const server = await startServe({ TOKENLESS_DATA_DIR: dirs.data, HOME: dirs.home, CLAUDE_CONFIG_DIR: env['CLAUDE_CONFIG_DIR'] ?? '' });
  try {
    const init = runCli(['init', '--http', '--port', String(server.port)], { cwd: dirs.work, env: { HOME: dirs.home, TOKENLESS_DATA_DIR: dirs.data } });
    expect(init.status, init.stderr).toBe(0);
    if (!serve) await server.stop();
    const run = await runClaude(CLAUDE ?? '', dirs, env, ['--permission-mode', 'default']);
    const stats = runCli(['stats', 'summary', '--json'], { env: { TOKENLESS_DATA_DIR: dirs.data } });
    const records = stats.status === 0 ? (JSON.parse(stats.stdout) as { totals: { records: number } }).totals.records : -1;
    return { results: seenResults(fake.requests), status: run.status, stderr: run.stderr, records };
  } finally {
    await server.stop();
    await fake.close();
  }
}

describe.skipIf(CLAUDE === null)('real Claude Code session with HTTP hooks (syt init --http, tokenless serve)', () => {
  it('rewrites and allows a read-only command through the HTTP hook, leaves one that would ask alone', async () => {
    const { results, status, stderr } = await session(true);
    expect(status, stderr).toBe(0);
    const [gitStatus, curl] = results;
    // The filtered view of git status (lossy: it carries a marker), not git's own long-form text.
    expect(gitStatus?.isError).toBe(false);
    expect(gitStatus?.content).not.toMatch(/use "git add <file>\.\.\." to update what will be committed/);
    expect(gitStatus?.content).toMatch(/README\.md/);
    // curl would ask in the default mode: no rewrite, no "allow", so Claude Code refuses it as it would anyway.
    expect(curl?.isError).toBe(true);
    expect(curl?.content).toMatch(/requires approval/);
  }, 200_000);

  it('runs every tool unchanged while the server is down', async () => {
    const { results, status, stderr } = await session(false);
    expect(status, stderr).toBe(0);
    expect(results[0]?.isError).toBe(false);
    expect(results[0]?.content).toMatch(/use "git add <file>\.\.\." to update what will be committed/);
  }, 200_000);
});
