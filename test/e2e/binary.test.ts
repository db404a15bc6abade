/**
 * The single executable (`npm run build:binary`), run from a temp dir with a PATH that holds no node: hook round
 * trip, `run` with a filter, `retrieve`, `stats summary`, `analyze` with Ink, and the extraction directory's checks.
 * Skipped when the binary is not built, unless TOKENLESS_REQUIRE_BINARY=1 (CI) makes that a failure.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCorpusCase } from '../helpers/fixtures.ts';
import { ROOT } from '../helpers/root.ts';
import { useTempDirs } from '../helpers/temp.ts';

const BUILT = process.env['TOKENLESS_BINARY'] ?? join(ROOT, 'dist', 'bin', `tokenless-${process.platform}-${process.arch}`);
const available = existsSync(BUILT);
const isRoot = process.getuid?.() === 0;

it.runIf(process.env['TOKENLESS_REQUIRE_BINARY'] === '1')('the binary is built', () => {
  expect(available, `${BUILT} is missing: run \`npm run build:binary\``).toBe(true);
});

// A skipped suite says why, in the test list and on the console.
it.runIf(!available && process.env['TOKENLESS_REQUIRE_BINARY'] !== '1')(`skips the single executable: ${BUILT} is not built (run \`npm run build:binary\`)`, () => {
  console.warn(`binary: ${BUILT} is not built; single-executable tests skipped. Build it with: npm run build:binary`);
});

describe.skipIf(!available)('single executable', () => {
  const tempDir = useTempDirs();
  let binDir = '';
  let tools = '';

  beforeAll(() => {
    // A private copy: a concurrent `npm run build` empties dist/, and the binary must not depend on where it lives.
    binDir = mkdtempSync(join(tmpdir(), 'tokenless-binary-'));
    copyFileSync(BUILT, join(binDir, 'tokenless'));
    chmodSync(join(binDir, 'tokenless'), 0o755);
    symlinkSync('tokenless', join(binDir, 'syt'));
    // The only programs on PATH: what the commands under test run. No node.
    tools = join(binDir, 'tools');
    mkdirSync(tools);
    for (const program of ['git', 'sh', 'cat']) {
      const found = spawnSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).stdout.trim();
      symlinkSync(found, join(tools, program));
    }
  });

  afterAll(() => rmSync(binDir, { recursive: true, force: true }));

  /** A fresh home (extraction cache) and data dir per test, with a minimal environment. */
  const sandbox = () => {
    const home = tempDir();
    return { home, env: { HOME: home, PATH: tools, TOKENLESS_DATA_DIR: join(home, 'data'), TZ: 'UTC', NO_COLOR: '1', COLUMNS: '100' } };
  };
  const exec = (name: string, args: readonly string[], env: Record<string, string>, options: { input?: string; cwd?: string } = {}) => {
    const result = spawnSync(join(binDir, name), args, { env, input: options.input ?? '', cwd: options.cwd ?? env['HOME'], maxBuffer: 64 * 1024 * 1024 });
    return { status: result.status, stdout: result.stdout.toString('utf8'), stderr: result.stderr.toString('utf8') };
  };
  const syt = (args: readonly string[], env: Record<string, string>, options: { input?: string; cwd?: string } = {}) => exec('syt', args, env, options);
  const extractionDir = (home: string) => {
    const base = join(home, '.cache', 'tokenless');
    const name = readdirSync(base).find((entry) => entry.startsWith('sea-'));
    if (name === undefined) throw new Error(`nothing extracted under ${base}`);
    return join(base, name);
  };
  const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
  const flipByte = (path: string, at: number) => {
    const bytes = readFileSync(path);
    bytes[at] = (bytes[at] ?? 0) ^ 1;
    chmodSync(path, 0o600);
    writeFileSync(path, bytes);
    chmodSync(path, 0o400);
  };
  const envelope = (operation: string, input: Record<string, unknown>, session = 's1') =>
    JSON.stringify({ protocol_version: 2, operation, attribution: { agent_id: 'a', session_id: session, tool_use_id: 't1' }, input });
  const gitRepo = (home: string) => {
    const repo = join(home, 'repo');
    mkdirSync(repo);
    spawnSync('git', ['init', '-q'], { cwd: repo });
    for (let i = 0; i < 40; i += 1) writeFileSync(join(repo, `file-${i}.txt`), `${i}\n`);
    return repo;
  };

  it('runs with no node on PATH and answers to its invoked name or first argument', () => {
    const { env } = sandbox();
    expect(spawnSync('sh', ['-c', 'command -v node'], { env }).status).not.toBe(0);
    expect(syt(['--version'], env)).toMatchObject({ status: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) as unknown });
    expect(syt(['--help'], env).stdout).toMatch(/^Usage: syt /);
    expect(exec('tokenless', ['--help'], env).stdout).toMatch(/^Usage: tokenless /);
    expect(exec('tokenless', ['syt', '--help'], env).stdout).toMatch(/^Usage: syt /);
  });

  it('rewrites a command to its own absolute path, and the rewritten command runs with a filter', () => {
    const { home, env } = sandbox();
    const repo = gitRepo(home);
    const answer = syt(['hook', 'pre_tool'], env, { input: envelope('pre_tool', { tool_name: 'Bash', arguments: { command: 'git status' }, command_field: 'command' }) });
    expect(answer.status).toBe(0);
    const { result } = JSON.parse(answer.stdout) as { result: { action: string; arguments: { command: string } } };
    expect(result.action).toBe('replace_arguments');
    expect(result.arguments.command).toContain(`${realpathSync(join(binDir, 'tokenless'))} run -- git status`);

    const bare = spawnSync('git', ['status'], { cwd: repo, env, encoding: 'utf8' });
    const wrapped = spawnSync('sh', ['-c', result.arguments.command], { cwd: repo, env, encoding: 'utf8' });
    expect(wrapped.status).toBe(0);
    expect(wrapped.stdout.length).toBeGreaterThan(0);
    expect(wrapped.stdout.length).toBeLessThan(bare.stdout.length);
  });

  it('stashes through post_tool and retrieves the original, by hook and by command', () => {
    const { env } = sandbox();
    const bigJson = loadCorpusCase('data-npm-view-versions-json').stdout;
    const post = syt(['hook', 'post_tool'], env, { input: envelope('post_tool', { tool_name: 'Bash', status: 'success', origin: 'api_response', content: bigJson }) });
    expect(post.status).toBe(0);
    const key = (JSON.parse(post.stdout) as { result: { visible_markers: string[] } }).result.visible_markers[0] ?? '';
    expect(key).toMatch(/^[0-9a-f]{24}$/);
    const marker = `<<tokenless:${key}>>`;
    const byHook = syt(['hook', 'retrieve'], env, { input: envelope('retrieve', { marker, visible_markers: [key] }) });
    expect(byHook.status).toBe(0);
    const content = (JSON.parse(byHook.stdout) as { result: { content: string } }).result.content;
    expect(bigJson.includes(content)).toBe(true);
    expect(syt(['retrieve', marker, '--session', 's1'], env)).toMatchObject({ status: 0, stdout: content });
    // No terminal here (pipes), so --any-session is refused: it is for a person, not something an agent can type.
    expect(syt(['retrieve', marker, '--any-session'], env)).toMatchObject({ status: 1, stdout: '' });
  });

  it('reports stats and analyzes a project (JSON and Ink), when those commands exist', () => {
    const { home, env } = sandbox();
    const repo = gitRepo(home);
    expect(syt(['run', '--', 'git', 'status'], env, { cwd: repo }).status).toBe(0);
    if (/\bsummary\b/.test(syt(['stats', '--help'], env).stdout)) {
      const summary = syt(['stats', 'summary', '--json'], env);
      expect(summary.status).toBe(0);
      expect(JSON.parse(summary.stdout)).toBeTypeOf('object');
    }
    if (/\banalyze\b/.test(syt(['--help'], env).stdout)) {
      writeFileSync(join(repo, 'CLAUDE.md'), '# Project notes\n\nUse the tests.\n');
      const json = syt(['analyze', '--json', repo], env);
      expect(json.status).toBe(0);
      expect(JSON.parse(json.stdout)).toBeTypeOf('object');
      const ink = syt(['analyze', repo], env);
      expect(ink.status).toBe(0);
      expect(ink.stdout).toContain('CLAUDE.md');
    }
  });

  describe('extraction directory', () => {
    const preTool = envelope('pre_tool', { tool_name: 'Bash', arguments: { command: 'cd /tmp' }, command_field: 'command' });

    it('is private (0700, files read-only) and re-extracts a file that fails its checksum', () => {
      const { home, env } = sandbox();
      expect(syt(['--version'], env).status).toBe(0);
      const dir = extractionDir(home);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, 'hook.cjs')).mode & 0o777).toBe(0o400);
      const good = sha(join(dir, 'hook.cjs'));
      flipByte(join(dir, 'hook.cjs'), 200);
      expect(syt(['hook', 'pre_tool'], env, { input: preTool }).status).toBe(0);
      expect(sha(join(dir, 'hook.cjs'))).toBe(good);
    });

    it('re-extracts a damaged addon before the store loads it', () => {
      const { home, env } = sandbox();
      expect(syt(['--version'], env).status).toBe(0);
      const addon = join(extractionDir(home), 'sqlite', 'better_sqlite3.node');
      const good = sha(addon);
      flipByte(addon, 5000);
      const repo = gitRepo(home);
      expect(syt(['run', '--', 'git', 'status'], env, { cwd: repo }).status).toBe(0);
      expect(sha(addon)).toBe(good);
    });

    it('re-extracts a directory of ours with the wrong mode', () => {
      const { home, env } = sandbox();
      expect(syt(['--version'], env).status).toBe(0);
      const dir = extractionDir(home);
      chmodSync(dir, 0o755);
      expect(syt(['--version'], env).status).toBe(0);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    });

    it.runIf(isRoot)('refuses a directory owned by another user, with a clear message', () => {
      const { home, env } = sandbox();
      expect(syt(['--version'], env).status).toBe(0);
      const dir = extractionDir(home);
      chownSync(dir, 65534, 65534);
      const result = syt(['hook', 'pre_tool'], env, { input: preTool });
      expect(result).toMatchObject({ status: 1, stdout: '' });
      expect(result.stderr).toContain(`${dir} is not yours (owned by uid 65534)`);
    });

    it('says why when it cannot extract', () => {
      const { home, env } = sandbox();
      writeFileSync(join(home, 'not-a-dir'), '');
      const result = syt(['--version'], { ...env, XDG_CACHE_HOME: join(home, 'not-a-dir') });
      expect(result).toMatchObject({ status: 1, stdout: '' });
      expect(result.stderr).toMatch(/^tokenless: cannot extract to .*: ENOTDIR/);
    });
  });
});
