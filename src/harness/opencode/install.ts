/**
 * `syt init --harness opencode`: the "settings file" is our plugin file itself (OpenCode loads every module in its
 * plugins directory, no config entry needed). Install writes it, uninstall deletes it; a file at that path that is not
 * ours (no PLUGIN_MARKER first line) is never overwritten or deleted.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { InstallPlan, InstallTarget, Scope, UninstallPlan } from '../types.ts';
import { PLUGIN_FILE, PLUGIN_MARKER, pluginSource } from './plugin-source.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** OpenCode 1.18.33 reads user config from `$XDG_CONFIG_HOME/opencode` (default `~/.config/opencode`). */
export function opencodePluginPath(scope: Scope, projectDir: string, env: Env): string {
  if (scope === 'project') return join(projectDir, '.opencode', 'plugins', PLUGIN_FILE);
  const xdg = env['XDG_CONFIG_HOME'];
  const config = xdg !== undefined && xdg !== '' ? xdg : join(env['HOME'] ?? homedir(), '.config');
  return join(config, 'opencode', 'plugins', PLUGIN_FILE);
}

export function isOurPlugin(text: string): boolean {
  return text.startsWith(`${PLUGIN_MARKER}\n`);
}

export function planInstall(original: string | null, target: InstallTarget): InstallPlan {
  if (target.kind !== 'command') return { ok: false, error: 'OpenCode runs our plugin inside its own process: there is no HTTP hook to install (drop --http)' };
  if (original !== null && !isOurPlugin(original)) return { ok: false, error: 'a file that is not ours is already at this path; move it away first' };
  const text = pluginSource(target.wrapperCommand);
  if (original === text) return { ok: true, changed: false, reason: 'the plugin is already installed' };
  return { ok: true, changed: true, text, backup: 'none' };
}

export function planUninstall(current: string | null): UninstallPlan {
  if (current === null) return { ok: true, action: 'unchanged', reason: 'no plugin of ours here' };
  if (!isOurPlugin(current)) return { ok: false, error: 'the file at this path is not ours; left alone' };
  return { ok: true, action: 'delete' };
}
