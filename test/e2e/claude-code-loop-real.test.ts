/**
 * Issue 23, the loop breaker with the real Claude Code client (2.1.332) and a scripted model: it runs `npm test`,
 * gets a view, and runs it again with a limiter (`2>&1 | tail -100`), then once more as typed. The re-run and every
 * run after it are raw (no marker, the passing tests the view folded are there); the re-run is recorded in stats; and
 * the session start told the model how to get raw output in one step. One client session (CI time).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStatsReader } from '../../src/store/stats-client.ts';
import { runCli } from '../helpers/cli.ts';
import { GIT_ENV } from '../helpers/fixture-repo.ts';
import { ROOT } from '../helpers/root.ts';
import { startFakeAnthropic, type FakeRequest, type Turn } from './claude/fake-anthropic.ts';
import { claudeBinary, runClaude, seenResults, sessionDirs, sessionEnv, type SeenResult } from './claude/session.ts';

const CLAUDE = claudeBinary();
if (CLAUDE === null) console.warn('claude-code-loop-real: Claude Code is not installed; run `bash scripts/install-claude-code.sh` (skipping)');
const MARKER = /<<tokenless:[0-9]{29}>>|\[tokenless retrieve [0-9]{29}\]/;
const made: string[] = [];

function buildWorkTree(work: string): void {
  mkdirSync(join(work, 'test'), { recursive: true });
  writeFileSync(join(work, 'package.json'), `${JSON.stringify({ name: 'demo', version: '1.0.0', private: true, scripts: { test: 'vitest run --reporter=verbose' } }, null, 2)}\n`);
  symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'));
  writeFileSync(join(work, '.gitignore'), 'node_modules\n');
  const cases = Array.from({ length: 40 }, (_, i) => `test('case ${i}', () => expect(${i} + 1).toBe(${i + 1}));`).join('\n');
  writeFileSync(join(work, 'test', 'all.test.mjs'), `import { test, expect } from 'vitest';\n${cases}\ntest('range', () => expect(600 > 599, 'status code out of range').toBe(false));\n`);
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: work, env: { ...process.env, ...GIT_ENV }, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
}

interface Outcome {
  readonly results: SeenResult[];
  readonly requests: readonly FakeRequest[];
  readonly status: number | null;
  readonly stderr: string;
  readonly dataDir: string;
}

describe.skipIf(CLAUDE === null)('real Claude Code session: a re-run after a view is raw', () => {
  let ours: Outcome;
  beforeAll(async () => {
    const dirs = sessionDirs(mkdtempSync(join(tmpdir(), 'tokenless-loop-')));
    made.push(dirs.root);
    buildWorkTree(dirs.work);
    const bash = (command: string): Turn => ({ tools: [{ name: 'Bash', input: { command, description: 'step' } }] });
    const server = await startFakeAnthropic([bash('npm test'), bash('npm test 2>&1 | tail -100'), bash('npm test'), { text: 'done' }], {});
    try {
      const init = runCli(['init'], { cwd: dirs.work, env: { HOME: dirs.home, CLAUDE_CONFIG_DIR: join(dirs.home, '.claude'), TOKENLESS_DATA_DIR: dirs.data } });
      expect(init.status, init.stderr).toBe(0);
      const run = await runClaude(CLAUDE ?? '', dirs, sessionEnv(dirs, server.url), ['--dangerously-skip-permissions']);
      ours = { results: seenResults(server.requests), requests: server.requests, status: run.status, stderr: run.stderr, dataDir: dirs.data };
    } finally {
      await server.close();
    }
  }, 200_000);
  afterAll(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('the first run is a view, the re-run and the run after it are raw', () => {
    expect(ours.status, ours.stderr).toBe(0);
    expect(ours.results).toHaveLength(3);
    const [view, rerun, again] = ours.results.map((r) => r.content);
    expect(view).toMatch(MARKER);
    expect(view).not.toMatch(/case 17\b/);
    for (const raw of [rerun, again]) {
      expect(raw).not.toMatch(MARKER);
      expect(raw).toMatch(/case 17\b/);
      expect(raw).toMatch(/status code out of range/);
    }
  });

  it('records the re-run in stats, with no output', () => {
    const db = openStatsReader(ours.dataDir);
    try {
      const rows = db?.prepare('SELECT kind, scope, how, program, view_kind FROM retrievals').all();
      expect(rows).toEqual([{ kind: 'rerun', scope: 'rerun', how: 'same_line', program: 'npm', view_kind: expect.any(String) as unknown }]);
    } finally {
      db?.close();
    }
  });

  it('the session start says how to get raw output in one step', () => {
    const first = JSON.stringify(ours.requests.find((r) => r.body !== null)?.body?.messages ?? []);
    expect(first).toContain('[tokenless retrieve N]');
    expect(first).toContain('TOKENLESS_DISABLED=1 CMD');
  });
});
