/**
 * `syt init --harness opencode`: the "settings file" is our plugin file itself (OpenCode loads every module in its
 * plugins directory, no config entry needed): src/harness/own-file.ts writes and deletes it.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { planOwnFileInstall, planOwnFileUninstall, type OwnFile } from '../own-file.ts';
import type { InstallPlan, InstallTarget, Scope, UninstallPlan } from '../types.ts';
import { PLUGIN_FILE, PLUGIN_MARKER, pluginSource } from './plugin-source.ts';

export const OPENCODE_PLUGIN: OwnFile = { title: 'OpenCode', noun: 'plugin', marker: PLUGIN_MARKER, source: pluginSource };

type Env = Readonly<Record<string, string | undefined>>;

/** OpenCode 1.18.33 reads user config from `$XDG_CONFIG_HOME/opencode` (default `~/.config/opencode`). */
export function opencodePluginPath(scope: Scope, projectDir: string, env: Env): string {
  if (scope === 'project') return join(projectDir, '.opencode', 'plugins', PLUGIN_FILE);
  const xdg = env['XDG_CONFIG_HOME'];
  const config = xdg !== undefined && xdg !== '' ? xdg : join(env['HOME'] ?? homedir(), '.config');
  return join(config, 'opencode', 'plugins', PLUGIN_FILE);
}

export function planInstall(original: string | null, target: InstallTarget): InstallPlan {
  return planOwnFileInstall(OPENCODE_PLUGIN, original, target);
}

export function planUninstall(current: string | null): UninstallPlan {
  return planOwnFileUninstall(OPENCODE_PLUGIN, current);
}
