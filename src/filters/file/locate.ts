/**
 * Where filter files live: the person's own (`$XDG_CONFIG_HOME/tokenless/filters/`, default `~/.config/…`) and the
 * project's (`.tokenless/filters/` at the first directory, from cwd up to the repository root, that has one). Only
 * `existsSync` calls: this runs on every hook call, and when neither folder exists nothing else is loaded.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export interface FilterDirs {
  readonly user: string;
  readonly project: string | null;
}

export function userFilterDir(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env['XDG_CONFIG_HOME'];
  const base = xdg !== undefined && xdg !== '' ? xdg : join(env['HOME'] ?? homedir(), '.config');
  return join(base, 'tokenless', 'filters');
}

/** The project's filter folder, searched from `cwd` up to the repository root (the first folder holding `.git`),
 * or null. Never above the repository: a parent's files are not this project's. */
export function projectFilterDir(cwd: string): string | null {
  let dir = resolve(cwd);
  for (let depth = 0; depth < 64; depth++) {
    const candidate = join(dir, '.tokenless', 'filters');
    if (existsSync(candidate)) return candidate;
    if (existsSync(join(dir, '.git'))) return null;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
  return null;
}

export function filterDirs(env: Readonly<Record<string, string | undefined>>, cwd: string): FilterDirs {
  return { user: userFilterDir(env), project: projectFilterDir(cwd) };
}

/** Whether any filter folder exists, so the caller knows whether loading is worth it at all. */
export function anyFilterDir(dirs: FilterDirs): boolean {
  return dirs.project !== null || existsSync(dirs.user);
}
