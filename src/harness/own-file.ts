/**
 * Install, uninstall and doctor for an agent that loads a file of ours from a directory (OpenCode's plugins, Pi's
 * extensions): the "settings file" is that file itself, no settings entry is needed. Install writes it, uninstall
 * deletes it; a file at that path whose first line is not our marker is never overwritten or deleted.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { InstallPlan, InstallTarget, Scope, UninstallPlan } from './types.ts';

type Env = Readonly<Record<string, string | undefined>>;

export interface OwnFile {
  /** The client's name in messages ("OpenCode", "Pi"). */
  readonly title: string;
  /** What the client calls such a file ("plugin", "extension"). */
  readonly noun: string;
  /** The first line of every file we write: how install, uninstall and doctor know the file is ours. */
  readonly marker: string;
  /** The file's text for our binary (absolute and shell-quoted). */
  readonly source: (wrapperCommand: string) => string;
}

export function isOurFile(file: OwnFile, text: string): boolean {
  return text.startsWith(`${file.marker}\n`);
}

export function planOwnFileInstall(file: OwnFile, original: string | null, target: InstallTarget): InstallPlan {
  if (target.kind !== 'command') return { ok: false, error: `${file.title} runs our ${file.noun} inside its own process: there is no HTTP hook to install (drop --http)` };
  if (original !== null && !isOurFile(file, original)) return { ok: false, error: 'a file that is not ours is already at this path; move it away first' };
  const text = file.source(target.wrapperCommand);
  if (original === text) return { ok: true, changed: false, reason: `the ${file.noun} is already installed` };
  return { ok: true, changed: true, text, backup: 'none' };
}

export function planOwnFileUninstall(file: OwnFile, current: string | null): UninstallPlan {
  if (current === null) return { ok: true, action: 'unchanged', reason: `no ${file.noun} of ours here` };
  if (!isOurFile(file, current)) return { ok: false, error: 'the file at this path is not ours; left alone' };
  return { ok: true, action: 'delete' };
}

/** Where our file is installed, in either scope (doctor warns on two: the client loads both). */
export function installedOwnFiles(file: OwnFile, pathOf: (scope: Scope, projectDir: string, env: Env) => string, projectDir: string, env: Env): string[] {
  return (['user', 'project'] as const).map((scope) => pathOf(scope, projectDir, env)).filter((path) => existsSync(path) && isOurFile(file, readFileSync(path, 'utf8')));
}
