/**
 * Differential test of pre_tool rewriting (issue 3): each command line runs raw and rewritten in a real bash, in
 * identical fresh copies of a small git project at the same path. Exit codes and file-system effects must be
 * identical; untouched commands must print identical bytes; every marker the rewritten run printed must retrieve
 * the raw output byte-exact.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKER_SOURCE } from '../../src/store/marker.ts';
import { runCli } from '../helpers/cli.ts';
import { GIT_ENV, buildFixtureRepo, copyFixture } from '../helpers/fixture-repo.ts';
const SESSION = 'differential-session';

const COMMANDS = [
  'git status',
  'git status --short',
  'git diff',
  'git diff --stat',
  'git diff --cached',
  'git log',
  'git log --oneline',
  'git log -n 2 --stat',
  'git show HEAD',
  'git branch',
  'git branch -a',
  'git stash list',
  'git --no-pager log -n 2',
  'git shortlog HEAD',
  'git grep -n app',
  'git add -A && git commit -q -m snapshot && git log --oneline',
  'git status && git log --oneline -n 2',
  'git status | head -3',
  'git log --oneline > log.txt; cat log.txt',
  'FOO=bar git status',
  'timeout 30 git status',
  'TOKENLESS_DISABLED=1 git status',
  'git status; false',
  'ls',
  'ls -la',
  'ls -R lib',
  'ls nonexistent-dir',
  'find . -name "*.js" -not -path "./.git/*"',
  'find lib -type f',
  'find . -name "*.md" -not -path "./.git/*" | wc -l',
  'du -sh lib',
  'wc -l lib/*.js',
  'grep -rn res.status lib',
  'grep -n function lib/application.js',
  'grep -rl app lib',
  'grep -rn zzz-not-found lib',
  'cat lib/response.js',
  'head -n 40 lib/response.js',
  'tail -n 20 lib/application.js',
  "sed -n '1,60p' lib/response.js",
  'npm test',
  'node --test test/fail.test.mjs',
  'cd lib && ls',
  'export FOO=1; echo "$FOO"',
  'echo hello | cat',
  'cat <<EOF\nheredoc body\nEOF',
  'sudo -n true',
  'mkdir -p out && ls > out/listing.txt && wc -l < out/listing.txt',
] as const;

/** Test runners print durations that differ between two runs of the same tests. */
function withoutTimings(text: string): string {
  return text.replace(/duration_ms:? [\d.]+/g, 'duration_ms N').replace(/\(\d+(\.\d+)?ms\)/g, '(Nms)');
}

interface Outcome {
  readonly status: number | null;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly tree: string;
}

/** Files outside .git with their content hashes, plus git's own view of the index, HEAD and stash. */
function snapshot(dir: string): string {
  const lines: string[] = [];
  const walk = (path: string): void => {
    for (const name of readdirSync(path).sort()) {
      const full = join(path, name);
      if (relative(dir, full) === '.git') continue;
      const stat = lstatSync(full);
      if (stat.isDirectory()) {
        lines.push(`d ${relative(dir, full)}`);
        walk(full);
      } else lines.push(`f ${relative(dir, full)} ${createHash('sha256').update(readFileSync(full)).digest('hex')}`);
    }
  };
  walk(dir);
  const git = (...args: string[]): string => spawnSync('git', args, { cwd: dir, env: { ...process.env, ...GIT_ENV } }).stdout.toString();
  return [...lines, git('status', '--porcelain=v1'), git('rev-parse', 'HEAD'), git('stash', 'list')].join('\n');
}

describe('rewritten commands behave exactly like the originals in real bash', () => {
  let template = '';
  let parent = '';
  let work = '';
  let dataDir = '';
  const baseEnv = (): Record<string, string> => ({
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: parent,
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    ...GIT_ENV,
    TOKENLESS_DATA_DIR: dataDir,
    TOKENLESS_SESSION_ID: SESSION,
  });
  const fresh = (): void => {
    rmSync(work, { recursive: true, force: true });
    copyFixture(template, work);
    // The parent's mtime shows up as `..` in `ls -la`: pin it so both runs print the same listing.
    utimesSync(parent, new Date('2024-01-01T00:00:00Z'), new Date('2024-01-01T00:00:00Z'));
  };
  const runBash = (command: string): Outcome => {
    fresh();
    const result = spawnSync('bash', ['-c', command], { cwd: work, env: baseEnv(), input: '', maxBuffer: 64 * 1024 * 1024 });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, tree: snapshot(work) };
  };

  let root = '';
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'tokenless-differential-'));
    template = join(root, 'template');
    parent = join(root, 'runs');
    work = join(parent, 'project');
    dataDir = join(root, 'data');
    mkdirSync(template, { recursive: true });
    mkdirSync(parent, { recursive: true });
    buildFixtureRepo(template);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('covers at least 40 command lines', () => {
    expect(COMMANDS.length).toBeGreaterThanOrEqual(40);
  });

  it.each(COMMANDS)('%s', (command) => {
    const planned = runCli(['rewrite', command, '--json'], { env: baseEnv() });
    expect(planned.status).toBe(0);
    const plan = JSON.parse(planned.stdout) as { command: string | null };
    const raw = runBash(command);
    const rewritten = runBash(plan.command ?? command);

    expect(rewritten.status).toBe(raw.status);
    expect(rewritten.tree).toBe(raw.tree);
    if (plan.command === null) {
      expect(withoutTimings(rewritten.stdout.toString('utf8'))).toBe(withoutTimings(raw.stdout.toString('utf8')));
      expect(rewritten.stderr.toString()).toBe(raw.stderr.toString());
      return;
    }
    const shown = rewritten.stdout.toString('utf8') + rewritten.stderr.toString('utf8');
    for (const match of shown.matchAll(new RegExp(MARKER_SOURCE, 'g'))) {
      const retrieved = runCli(['retrieve', match[0]], { env: { TOKENLESS_DATA_DIR: dataDir, TOKENLESS_SESSION_ID: SESSION } });
      expect(retrieved.status).toBe(0);
      // One wrapped segment's raw output: a contiguous part of what the raw run printed (timings aside).
      const got = withoutTimings(retrieved.stdout);
      const inRaw = withoutTimings(raw.stdout.toString('utf8')).includes(got) || withoutTimings(raw.stderr.toString('utf8')).includes(got);
      expect(inRaw, `marker ${match[0]} retrieves raw output`).toBe(true);
    }
  });
});
