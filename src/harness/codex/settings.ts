/**
 * Where Codex CLI 0.169.0 looks for hooks and exec-policy rules: next to each config layer. The user's layer is
 * `$CODEX_HOME` (default `~/.codex`), a project's is every `.codex` directory from the filesystem root down to the
 * working directory, the system's `/etc/codex` (with `requirements.toml`, whose `[rules]` are managed policy).
 */
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Scope } from '../types.ts';

type Env = Readonly<Record<string, string | undefined>>;

export function codexHome(env: Env): string {
  const home = env['CODEX_HOME'];
  return home !== undefined && home !== '' ? home : join(env['HOME'] ?? homedir(), '.codex');
}

export function codexHooksPath(scope: Scope, projectDir: string, env: Env): string {
  return scope === 'user' ? join(codexHome(env), 'hooks.json') : join(projectDir, '.codex', 'hooks.json');
}

export const SYSTEM_DIR = '/etc/codex';

/** Directories whose `*.rules` files add exec-policy rules that judge a command by its words. */
export function rulesDirectories(cwd: string, env: Env): string[] {
  const dirs = [join(SYSTEM_DIR, 'rules'), join(codexHome(env), 'rules')];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    dirs.push(join(dir, '.codex', 'rules'));
    if (dirname(dir) === dir) break;
  }
  return dirs;
}

/** Managed policy files that can carry rules of their own. */
export const MANAGED_FILES = [join(SYSTEM_DIR, 'requirements.toml'), join(SYSTEM_DIR, 'managed_config.toml')];
