/**
 * `syt init --harness pi`: the "settings file" is our extension file itself (Pi 0.73.1 loads every `*.js` / `*.ts`
 * in its extensions directories, no settings entry needed): src/harness/own-file.ts writes and deletes it.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { planOwnFileInstall, planOwnFileUninstall, type OwnFile } from '../own-file.ts';
import type { InstallPlan, InstallTarget, Scope, UninstallPlan } from '../types.ts';
import { EXTENSION_FILE, EXTENSION_MARKER, extensionSource } from './extension-source.ts';

export const PI_EXTENSION: OwnFile = { title: 'Pi', noun: 'extension', marker: EXTENSION_MARKER, source: extensionSource };

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

export function planInstall(original: string | null, target: InstallTarget): InstallPlan {
  return planOwnFileInstall(PI_EXTENSION, original, target);
}

export function planUninstall(current: string | null): UninstallPlan {
  return planOwnFileUninstall(PI_EXTENSION, current);
}
