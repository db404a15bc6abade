/**
 * `syt init --harness pi`: the "settings file" is our extension file itself (Pi 0.73.1 loads every `*.js` / `*.ts`
 * in its extensions directories, no settings entry needed). Install writes it, uninstall deletes it; a file at that
 * path that is not ours (no EXTENSION_MARKER first line) is never overwritten or deleted.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { InstallPlan, InstallTarget, Scope, UninstallPlan } from '../types.ts';
import { EXTENSION_FILE, EXTENSION_MARKER, extensionSource } from './extension-source.ts';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Pi's agent directory: `$PI_CODING_AGENT_DIR` (a leading `~` expanded, as Pi does), else `~/.pi/agent`; the
 * project's extensions are under `.pi/extensions` of the directory Pi starts in.
 */
export function piExtensionPath(scope: Scope, projectDir: string, env: Env): string {
  if (scope === 'project') return join(projectDir, '.pi', 'extensions', EXTENSION_FILE);
  const home = env['HOME'] ?? homedir();
  const configured = env['PI_CODING_AGENT_DIR'];
  const agentDir =
    configured === undefined || configured === '' ? join(home, '.pi', 'agent') : configured === '~' ? home : configured.startsWith('~/') ? join(home, configured.slice(2)) : configured;
  return join(agentDir, 'extensions', EXTENSION_FILE);
}

export function isOurExtension(text: string): boolean {
  return text.startsWith(`${EXTENSION_MARKER}\n`);
}

export function planInstall(original: string | null, target: InstallTarget): InstallPlan {
  if (target.kind !== 'command') return { ok: false, error: 'Pi runs our extension inside its own process: there is no HTTP hook to install (drop --http)' };
  if (original !== null && !isOurExtension(original)) return { ok: false, error: 'a file that is not ours is already at this path; move it away first' };
  const text = extensionSource(target.wrapperCommand);
  if (original === text) return { ok: true, changed: false, reason: 'the extension is already installed' };
  return { ok: true, changed: true, text, backup: 'none' };
}

export function planUninstall(current: string | null): UninstallPlan {
  if (current === null) return { ok: true, action: 'unchanged', reason: 'no extension of ours here' };
  if (!isOurExtension(current)) return { ok: false, error: 'the file at this path is not ours; left alone' };
  return { ok: true, action: 'delete' };
}
