/**
 * Where Claude Code's settings files live, and its program: plain paths, apart from the settings schemas
 * (./settings.ts), because the harness object needs them on every hook call and the schemas only on some.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Scope } from '../types.ts';

/** The user's Claude Code config directory ($CLAUDE_CONFIG_DIR or ~/.claude). */
export function claudeConfigDir(env: Readonly<Record<string, string | undefined>>): string {
  const configured = env['CLAUDE_CONFIG_DIR'];
  return configured !== undefined && configured !== '' ? configured : join(env['HOME'] ?? homedir(), '.claude');
}

/**
 * The file `syt init` edits for a scope. Our hooks name this machine's binary by absolute path, so a project's go to
 * `.claude/settings.local.json`, which Claude Code reads with the same schema but which is not committed (Claude Code
 * git-ignores it; init makes sure): the shared `.claude/settings.json` stays untouched. The user file is never shared.
 */
export function settingsPath(scope: Scope, projectDir: string, env: Readonly<Record<string, string | undefined>>): string {
  return scope === 'user' ? join(claudeConfigDir(env), 'settings.json') : localSettingsPath(projectDir);
}

/**
 * Where 0.1's `syt init` put a project's hooks: the committed `.claude/settings.json`. Install moves our hooks out of
 * it (restoring its backup byte for byte), uninstall removes them from it too, doctor warns while they are there.
 */
export function legacySettingsPaths(scope: Scope, projectDir: string): string[] {
  return scope === 'project' ? [join(projectDir, '.claude', 'settings.json')] : [];
}

/** The project's git-ignored settings file: where a project's hooks go (the HTTP ones carry the serve token). */
export function localSettingsPath(projectDir: string): string {
  return join(projectDir, '.claude', 'settings.local.json');
}

/** Every file whose permission rules apply in a project, most general first (managed, user, project, local). */
export function permissionSources(projectDir: string, env: Readonly<Record<string, string | undefined>>): string[] {
  return ['/etc/claude-code/managed-settings.json', join(claudeConfigDir(env), 'settings.json'), ...projectSettingsFiles(projectDir)];
}

/** A project's own settings files: the committed one and the local one. */
export function projectSettingsFiles(projectDir: string): string[] {
  return [join(projectDir, '.claude', 'settings.json'), localSettingsPath(projectDir)];
}

/** Claude Code's program: `claude` on PATH, or TOKENLESS_CLAUDE_BIN. */
export const CLAUDE_CODE_CLIENT = { variable: 'TOKENLESS_CLAUDE_BIN', bin: 'claude' } as const;
