/**
 * The project directory whose `.claude/settings*.json` Claude Code applies to a tool call. The client reads project
 * and local settings from the directory it was started in (2.1.332: `projectConfigDir ?? cwd` of the session, never
 * the shell's current directory), sets CLAUDE_PROJECT_DIR to it for command hooks, and names the session's transcript
 * folder after it: `<config>/projects/<the path with every character but [A-Za-z0-9] as "-">/<session>.jsonl`
 * (names past 200 characters are cut and get a hash). The hook's stdin `cwd` is the shell's directory, which a
 * `cd lib` moves. So, in order: CLAUDE_PROJECT_DIR of a command hook (the HTTP server's own environment is no
 * hook's), the directory the transcript folder names (an ancestor of cwd, else found by its name from `/`), and
 * without either a guess that only ever sees more rules: cwd as the project (the read-only check then vouches for
 * less) with the deny and ask rules of every ancestor's settings.
 */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';

export interface ProjectRoot {
  readonly dir: string;
  /** How it was found; `guess`: the deny/ask rules of every ancestor of `dir` apply too. */
  readonly source: 'env' | 'transcript' | 'guess';
}

const MAX_NAME = 200;
/** Directory listings a search by name may read: a project is rarely more than a few levels deep. */
const MAX_LISTINGS = 64;

export function clientProjectRoot(
  event: { readonly cwd?: string | undefined; readonly transcript_path?: string | undefined },
  env: Readonly<Record<string, string | undefined>>,
): ProjectRoot {
  const fromEnv = env['CLAUDE_PROJECT_DIR'];
  if (fromEnv !== undefined && fromEnv !== '') return { dir: fromEnv, source: 'env' };
  const cwd = event.cwd ?? process.cwd();
  const name = transcriptProjectName(event.transcript_path);
  if (name !== null) {
    const found = ancestorNamed(cwd, name) ?? searchByName(name);
    if (found !== null) return { dir: found, source: 'transcript' };
  }
  return { dir: cwd, source: 'guess' };
}

/** The folder name under `<config>/projects/` that a transcript path (main or subagent) lies in. */
export function transcriptProjectName(path: string | undefined): string | null {
  if (path === undefined) return null;
  const parts = path.split(sep);
  const at = parts.lastIndexOf('projects', parts.length - 3);
  const name = at < 0 ? undefined : parts[at + 1];
  return name === undefined || name === '' ? null : name;
}

/** Claude Code's transcript folder name for a project path. */
export function sanitizedProjectName(path: string): string {
  return path.replace(/[^a-zA-Z0-9]/g, '-');
}

/** Whether a folder name can be the one Claude Code gives `path` (a long one only by its cut prefix). */
function nameFits(path: string, name: string): boolean {
  const sanitized = sanitizedProjectName(path);
  if (sanitized.length <= MAX_NAME) return sanitized === name;
  return name.startsWith(`${sanitized.slice(0, MAX_NAME)}-`);
}

/** The one ancestor of cwd (as given or resolved) the name fits, or null when none or several do. */
function ancestorNamed(cwd: string, name: string): string | null {
  const fits = new Set<string>();
  for (const start of [cwd, realOrNull(cwd)]) {
    if (start === null) continue;
    for (let at = start; ; at = dirname(at)) {
      if (nameFits(at, name)) fits.add(at);
      if (dirname(at) === at) break;
    }
  }
  return fits.size === 1 ? ([...fits][0] ?? null) : null;
}

/** The one directory from `/` down whose path the name fits, read level by level; null when not exactly one. */
function searchByName(name: string): string | null {
  if (name.length > MAX_NAME || !name.startsWith('-')) return null;
  const found: string[] = [];
  let listings = 0;
  const visit = (dir: string, rest: string): void => {
    if (rest === '') {
      found.push(dir);
      return;
    }
    if (listings >= MAX_LISTINGS || found.length > 1) return;
    listings += 1;
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const entry of entries) {
      const part = sanitizedProjectName(entry);
      if (!rest.startsWith(part) || (rest.length > part.length && rest[part.length] !== '-')) continue;
      const path = join(dir, entry);
      if (isDirectory(path)) visit(path, rest.slice(part.length + 1));
    }
  };
  visit(sep, name.slice(1));
  return found.length === 1 && listings < MAX_LISTINGS ? (found[0] ?? null) : null;
}

/** Every ancestor of dir, itself excluded, nearest first. */
export function ancestorsOf(dir: string): string[] {
  const out: string[] = [];
  for (let at = dirname(dir); ; at = dirname(at)) {
    out.push(at);
    if (dirname(at) === at) return out;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync.native(path);
  } catch {
    return null;
  }
}
