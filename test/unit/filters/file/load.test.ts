import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../src/config/config.ts';
import { activeFileFilters } from '../../../../src/filters/file/active.ts';
import { loadFilterSet } from '../../../../src/filters/file/load.ts';
import { filterDirs } from '../../../../src/filters/file/locate.ts';
import { pinTrust } from '../../../../src/filters/file/trust.ts';
import { runInlineTests } from '../../../../src/filters/file/inline-tests.ts';
import { findFilter } from '../../../../src/filters/registry.ts';
import { viewRun } from '../../../../src/runtime/run-view.ts';
import { Runtime } from '../../../../src/runtime/runtime.ts';
import { useTempDirs } from '../../../helpers/temp.ts';

const tempDir = useTempDirs();

const FILTER = `command = "deploy-tool push *"
skip = ['^uploading ']
[[test]]
input = "uploading a\\nuploading b\\ndone\\n"
expected = "done"
[[test]]
name = "wrong on purpose"
input = "uploading a\\ndone\\n"
expected = "uploading a\\ndone"
`;

function project(): { root: string; filters: string; env: Record<string, string>; dataDir: string } {
  const root = tempDir();
  mkdirSync(join(root, 'repo', '.git'), { recursive: true });
  const filters = join(root, 'repo', '.tokenless', 'filters');
  mkdirSync(filters, { recursive: true });
  return { root, filters, env: { HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'config') }, dataDir: join(root, 'data') };
}

describe('filter folders and trust', () => {
  it('a project file is inert until trusted at its hash, and inert again once it changes', () => {
    const { root, filters, env, dataDir } = project();
    writeFileSync(join(filters, 'deploy.toml'), FILTER);
    const dirs = filterDirs(env, join(root, 'repo'));
    const before = loadFilterSet(dirs, dataDir);
    expect(before.active).toEqual([]);
    expect(before.files.map((file) => file.trusted)).toEqual([false]);
    pinTrust(dataDir, join(filters, 'deploy.toml'), before.files[0]?.hash ?? '');
    expect(loadFilterSet(dirs, dataDir).active.map((filter) => filter.name)).toEqual(['deploy']);
    writeFileSync(join(filters, 'deploy.toml'), `${FILTER}\n# edited\n`);
    expect(loadFilterSet(dirs, dataDir).active).toEqual([]);
  });

  it('the person\'s own folder needs no trust; a subfolder of the repo finds the project folder', async () => {
    const { root, env, dataDir } = project();
    const user = join(root, 'config', 'tokenless', 'filters');
    mkdirSync(user, { recursive: true });
    writeFileSync(join(user, 'deploy.toml'), FILTER);
    mkdirSync(join(root, 'repo', 'lib'));
    const active = await activeFileFilters(env, join(root, 'repo', 'lib'), dataDir);
    expect(active.map((filter) => [filter.name, filter.scope])).toEqual([['deploy', 'user']]);
    expect(filterDirs(env, join(root, 'repo', 'lib')).project).toBe(join(root, 'repo', '.tokenless', 'filters'));
  });

  it('the hook turns unchanged files into filters from the spec cache, and parses a changed file again', async () => {
    const { root, env, dataDir } = project();
    const user = join(root, 'config', 'tokenless', 'filters');
    mkdirSync(user, { recursive: true });
    writeFileSync(join(user, 'deploy.toml'), FILTER);
    const cwd = join(root, 'repo');
    expect((await activeFileFilters(env, cwd, dataDir)).map((filter) => filter.name)).toEqual(['deploy']);
    const cache = JSON.parse(readFileSync(join(dataDir, 'filter-specs.json'), 'utf8')) as { entries: Record<string, unknown> };
    expect(Object.keys(cache.entries)).toHaveLength(1);
    const [cached] = await activeFileFilters(env, cwd, dataDir);
    expect(cached?.commands.map((pattern) => pattern.source)).toEqual(['deploy-tool push *']);
    writeFileSync(join(user, 'deploy.toml'), FILTER.replace('deploy-tool push *', 'deploy-tool ship *'));
    const [changed] = await activeFileFilters(env, cwd, dataDir);
    expect(changed?.commands.map((pattern) => pattern.source)).toEqual(['deploy-tool ship *']);
    // Stages built lazily from the cache are the stages a fresh parse builds.
    const [fromCache] = await activeFileFilters(env, cwd, dataDir);
    expect(fromCache?.onSuccess).toEqual(changed?.onSuccess);
    expect(fromCache?.onFailure).toEqual(changed?.onFailure);
    // The cache is keyed by what lstat sees: the same text behind a link is a link, and links never run.
    writeFileSync(join(root, 'elsewhere.toml'), readFileSync(join(user, 'deploy.toml')));
    rmSync(join(user, 'deploy.toml'));
    symlinkSync(join(root, 'elsewhere.toml'), join(user, 'deploy.toml'));
    expect(await activeFileFilters(env, cwd, dataDir)).toEqual([]);
  });

  it('nothing is read when neither folder exists', async () => {
    const root = tempDir();
    expect(await activeFileFilters({ HOME: root, XDG_CONFIG_HOME: join(root, 'none') }, root, join(root, 'data'))).toEqual([]);
  });

  it('links, FIFOs and broken files are problems with their path, never a crash', () => {
    const { root, filters, env, dataDir } = project();
    writeFileSync(join(root, 'elsewhere.toml'), FILTER);
    symlinkSync(join(root, 'elsewhere.toml'), join(filters, 'link.toml'));
    mkfifoSync(join(filters, 'fifo.toml'));
    writeFileSync(join(filters, 'broken.toml'), 'command = \n');
    const set = loadFilterSet(filterDirs(env, join(root, 'repo')), dataDir);
    expect(set.active).toEqual([]);
    expect(set.problems.map((problem) => [problem.path.split('/').at(-1), problem.message.split(' ')[0]]).sort()).toEqual([
      ['broken.toml', 'Invalid'],
      ['fifo.toml', 'not'],
      ['link.toml', 'a'],
    ]);
  });
});

// mkfifo is in node:fs only through the shell here.
function mkfifoSync(path: string): void {
  execFileSync('mkfifo', [path]);
}

describe('a file filter in the pipeline', () => {
  it('runs its inline tests with a diff for the one that fails', () => {
    const { root, filters, env, dataDir } = project();
    writeFileSync(join(filters, 'deploy.toml'), FILTER);
    const [filter] = loadFilterSet(filterDirs(env, join(root, 'repo')), dataDir).files[0]?.filters ?? [];
    if (filter === undefined) throw new Error('no filter');
    const results = runInlineTests(filter);
    expect(results.map((result) => result.passed)).toEqual([true, false]);
    expect(results[1]?.diff).toContain('-uploading a');
  });

  it('matches before the built-ins, views through the one arbitration, and retrieves byte-exact', () => {
    const { root, filters, env, dataDir } = project();
    writeFileSync(join(filters, 'npm-ci.toml'), 'command = "npm ci"\nskip = ["^npm warn"]\n');
    const set = loadFilterSet(filterDirs(env, join(root, 'repo')), dataDir);
    pinTrust(dataDir, join(filters, 'npm-ci.toml'), set.files[0]?.hash ?? '');
    const active = loadFilterSet(filterDirs(env, join(root, 'repo')), dataDir).active;
    expect(findFilter(['npm', 'ci'], active)?.name).toBe('file:npm-ci');
    expect(findFilter(['npm', 'ci'])?.name).not.toBe('file:npm-ci');
    const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: dataDir }), Date.now, { fileFilters: active });
    try {
      const stdout = `${Array.from({ length: 200 }, (_, i) => `npm warn deprecated pkg-${i}@1.0.0: no longer supported`).join('\n')}\nadded 812 packages in 9s\n`;
      const view = viewRun(runtime, { argv: ['npm', 'ci'], stdout: Buffer.from(stdout), stderr: Buffer.alloc(0), exitCode: 0 }, { agentId: 'test', sessionId: 's' });
      expect(view.filter).toBe('file:npm-ci');
      expect(view.stdout.toString()).toMatch(/^added 812 packages in 9s\n\[tokenless retrieve \w+\]\n$/);
      const stashed = runtime.stash.get(view.stashKeys[0] ?? '');
      expect(stashed.ok && stashed.bytes.toString()).toBe(stdout);
    } finally {
      runtime.close();
    }
  });
});
