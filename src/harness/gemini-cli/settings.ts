/**
 * Where Gemini CLI 0.61.0 keeps its settings and policies (its Storage class): the user's directory is
 * `$GEMINI_CLI_HOME/.gemini` when that is set, else `~/.gemini`; the project's is `<project>/.gemini`; the system's
 * `/etc/gemini-cli` on Linux (`$GEMINI_CLI_SYSTEM_SETTINGS_PATH` overrides its settings file).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Scope } from '../types.ts';

type Env = Readonly<Record<string, string | undefined>>;

export function geminiUserDir(env: Env): string {
  const home = env['GEMINI_CLI_HOME'];
  return join(home !== undefined && home !== '' ? home : (env['HOME'] ?? homedir()), '.gemini');
}

export function geminiSettingsPath(scope: Scope, projectDir: string, env: Env): string {
  return scope === 'user' ? join(geminiUserDir(env), 'settings.json') : join(projectDir, '.gemini', 'settings.json');
}

const SYSTEM_DIR = '/etc/gemini-cli';

/** Every settings file whose rules apply in a project (system defaults, user, project, system). */
export function settingsSources(projectDir: string, env: Env): string[] {
  return [
    env['GEMINI_CLI_SYSTEM_DEFAULTS_PATH'] ?? join(SYSTEM_DIR, 'system-defaults.json'),
    join(geminiUserDir(env), 'settings.json'),
    join(projectDir, '.gemini', 'settings.json'),
    env['GEMINI_CLI_SYSTEM_SETTINGS_PATH'] ?? join(SYSTEM_DIR, 'settings.json'),
  ];
}

/** Directories whose files can add policy rules: policy TOML files, and extensions (which may ship policies). */
export function ruleDirectories(projectDir: string, env: Env): string[] {
  return [
    join(SYSTEM_DIR, 'policies'),
    join(geminiUserDir(env), 'policies'),
    join(projectDir, '.gemini', 'policies'),
    join(geminiUserDir(env), 'extensions'),
    join(projectDir, '.gemini', 'extensions'),
  ];
}
