/**
 * Running one command line in real bash inside a scratch copy of the fixture project, for the differential suites:
 * each worker owns a scratch directory (project, HOME, TMPDIR) at a fixed path, so a raw and a rewritten run of the
 * same line see the same paths; a small pool runs lines on several workers at once.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { GIT_ENV, copyFixture } from './fixture-repo.ts';

export interface BashOutcome {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly timedOut: boolean;
}

/** Files (content hashes) and symlinks under `dir`, `.git` aside; with `git` also git's view of index, HEAD and stash. */
export function treeSnapshot(dir: string, withGit: boolean): string {
  const lines: string[] = [];
  const walk = (path: string): void => {
    let names: string[];
    try {
      names = readdirSync(path).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const full = join(path, name);
      const rel = relative(dir, full);
      if (rel === '.git') continue;
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) lines.push(`l ${rel} -> ${readlinkSync(full)}`);
      else if (stat.isDirectory()) {
        lines.push(`d ${rel}`);
        walk(full);
      } else if (stat.isFile()) lines.push(`f ${rel} ${(stat.mode & 0o111) !== 0 ? 'x' : '-'} ${createHash('sha256').update(readFileSync(full)).digest('hex')}`);
      else lines.push(`o ${rel}`);
    }
  };
  walk(dir);
  if (!withGit) return lines.join('\n');
  const git = (...args: string[]): string => spawnSync('git', args, { cwd: dir, env: { ...process.env, ...GIT_ENV } }).stdout.toString();
  return [...lines, git('status', '--porcelain=v1'), git('rev-parse', 'HEAD'), git('stash', 'list'), git('branch', '--list')].join('\n');
}

/** Runs `bash -c LINE` (no stdin, as Claude Code runs it), killing the whole process group after `timeoutMs`. */
export function runBash(line: string, options: { cwd: string; env: Record<string, string>; timeoutMs: number; args?: readonly string[] }): Promise<BashOutcome> {
  return new Promise((resolve) => {
    const child = spawn('/bin/bash', [...(options.args ?? ['-c']), line], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err), timedOut });
    });
  });
}

/** Runs `work` over `items` with at most `size` at once; results keep the items' order. */
export async function pool<T, R>(items: readonly T[], size: number, work: (item: T, worker: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async (_, worker) => {
      for (;;) {
        const index = next++;
        if (index >= items.length) return;
        results[index] = await work(items[index] as T, worker);
      }
    }),
  );
  return results;
}

/**
 * Programs that would reach the network, shadowed by stubs that fail the same way on every run (CI runs inside
 * `unshare -n`, where the real ones fail too, but not always identically or quickly).
 */
const OFFLINE_STUBS = ['curl', 'wget', 'ssh', 'scp', 'rsync', 'gh', 'nc', 'telnet', 'ftp', 'npx', 'pnpx', 'docker'];

/** A directory of offline stubs to put first on PATH. */
export function offlineBin(dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const name of OFFLINE_STUBS) {
    const file = join(dir, name);
    writeFileSync(file, `#!/bin/sh\necho "${name}: no network in the differential sandbox" >&2\nexit 69\n`);
    chmodSync(file, 0o755);
  }
  return dir;
}

/** One worker's scratch area at a fixed path: `project` (a fresh fixture copy), `home`, `tmp`. */
export class Scratch {
  readonly root: string;
  readonly project: string;
  readonly home: string;
  readonly tmp: string;

  constructor(root: string) {
    this.root = root;
    this.project = join(root, 'project');
    this.home = join(root, 'home');
    this.tmp = join(root, 'tmp');
  }

  /** Back to the template's state: every earlier run's effects gone, mtimes pinned so listings agree. */
  reset(template: string): void {
    for (const dir of [this.project, this.home, this.tmp]) rmSync(dir, { recursive: true, force: true });
    mkdirSync(this.root, { recursive: true });
    copyFixture(template, this.project);
    mkdirSync(this.home);
    mkdirSync(this.tmp);
    const epoch = new Date('2024-01-01T00:00:00Z');
    for (const dir of [this.home, this.tmp, this.root, dirname(this.root)]) utimesSync(dir, epoch, epoch);
  }

  /**
   * The environment a line runs in here, the same for its raw and rewritten runs: `bin` (offlineBin) first on PATH,
   * this scratch's HOME and TMPDIR, a fixed locale, clock and git identity, npm offline and without its update check.
   */
  env(bin: string): Record<string, string> {
    return {
      PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
      HOME: this.home,
      TMPDIR: this.tmp,
      LANG: 'C.UTF-8',
      TZ: 'UTC',
      ...GIT_ENV,
      // npm would otherwise write a timestamped debug log under HOME and check the registry for updates.
      npm_config_logs_max: '0',
      npm_config_update_notifier: 'false',
      npm_config_offline: 'true',
    };
  }

  /** The file effects of a run: the project (with git's view), HOME and TMPDIR. */
  effects(): string {
    return [treeSnapshot(this.project, true), '--- home', treeSnapshot(this.home, false), '--- tmp', treeSnapshot(this.tmp, false)].join('\n');
  }
}
