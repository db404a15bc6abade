/**
 * The npm package: `npm pack` holds only the built bundle and the docs it needs; with TOKENLESS_PACKAGE_INSTALL=1 the
 * tarball is also installed with `npm i -g` into a temp prefix (dependencies from the registry or the npm cache;
 * better-sqlite3 compiles, so this takes minutes) and both bins are run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/root.ts';
import { useTempDirs } from '../helpers/temp.ts';

const built = existsSync(join(ROOT, 'dist', 'cli.cjs'));
const ALLOWED = /^(package\.json|README\.md|LICENSE|dist\/(cli|hook|run|sqlite)\.cjs|dist\/launch\.sh|dist\/program\.js|dist\/chunks\/[\w-]+\.js|dist\/lib\/(index\.js|ai-sdk\.js|langchain\.js|chunks\/[\w-]+\.js)|dist\/types\/[\w/.-]+\.d\.ts)$/;

const npm = (args: readonly string[], cwd: string) => {
  const result = spawnSync('npm', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
};

// A skipped test says why, in the test list and on the console.
it.runIf(!built)('skips the npm package tests: dist/cli.cjs is missing (run `npm run build`)', () => {
  console.warn('package: dist/cli.cjs is missing; npm package tests skipped. Build with: npm run build');
});

describe.skipIf(!built)('npm package', () => {
  const tempDir = useTempDirs();

  it('packs the bundle, the library, README, LICENSE and package.json, and nothing else', () => {
    const [report] = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], ROOT)) as [{ files: { path: string }[] }];
    const paths = report.files.map((file) => file.path);
    expect(paths.filter((path) => !ALLOWED.test(path))).toEqual([]);
    for (const needed of ['package.json', 'README.md', 'LICENSE', 'dist/cli.cjs', 'dist/hook.cjs', 'dist/run.cjs', 'dist/sqlite.cjs', 'dist/launch.sh', 'dist/program.js', 'dist/lib/index.js']) expect(paths).toContain(needed);
    // Every chunk the bundle has is shipped (program.js imports them lazily, so a missing one fails only at run time).
    const chunks = readdirSync(join(ROOT, 'dist', 'chunks')).map((name) => `dist/chunks/${name}`);
    expect(chunks.filter((chunk) => !paths.includes(chunk))).toEqual([]);
  });

  it.runIf(process.env['TOKENLESS_PACKAGE_INSTALL'] !== '1')('skips the global install from the tarball: it takes minutes (set TOKENLESS_PACKAGE_INSTALL=1)', () => {
    console.warn('package: global install from the tarball skipped (it compiles better-sqlite3, minutes); set TOKENLESS_PACKAGE_INSTALL=1 to run it');
  });

  it.runIf(process.env['TOKENLESS_PACKAGE_INSTALL'] === '1')('installs globally from the tarball and both bins work', () => {
    const work = tempDir();
    npm(['pack', '--pack-destination', work, '--ignore-scripts'], ROOT);
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    expect(tarball).toBeDefined();
    const prefix = join(work, 'prefix');
    npm(['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', join(work, tarball ?? '')], work);

    const repo = join(work, 'repo');
    mkdirSync(repo);
    spawnSync('git', ['init', '-q'], { cwd: repo });
    for (let i = 0; i < 40; i += 1) writeFileSync(join(repo, `file-${i}.txt`), `${i}\n`);
    const env = { HOME: work, PATH: `${join(prefix, 'bin')}:${process.env['PATH'] ?? '/usr/bin:/bin'}`, TOKENLESS_DATA_DIR: join(work, 'data'), NO_COLOR: '1' };
    const run = (bin: string, args: readonly string[], input = '') => spawnSync(join(prefix, 'bin', bin), args, { cwd: repo, env, input, encoding: 'utf8' });

    for (const bin of ['syt', 'tokenless']) {
      expect(run(bin, ['--version'])).toMatchObject({ status: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) as unknown });
    }
    const envelope = { protocol_version: 2, operation: 'pre_tool', attribution: { agent_id: 'a', session_id: 's', tool_use_id: 't' }, input: { tool_name: 'Bash', arguments: { command: 'git status' }, command_field: 'command' } };
    const hook = run('syt', ['hook', 'pre_tool'], JSON.stringify(envelope));
    expect(hook.status).toBe(0);
    expect(hook.stdout).toContain('run -- git status');
    // Rewritten commands start through the packed launcher (Node's variables act on the program only).
    expect(hook.stdout).toMatch(/dist\/launch\.sh/);
    const wrapped = run('tokenless', ['run', '--', 'git', 'status']);
    expect(wrapped.status).toBe(0);
    expect(wrapped.stdout.length).toBeLessThan(spawnSync('git', ['status'], { cwd: repo, encoding: 'utf8' }).stdout.length);
  }, 900_000);
});
