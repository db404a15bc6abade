/**
 * What the wrapper's descriptors and limits are (Linux /proc; elsewhere only fstat). The decisions made from these
 * facts are pure, in src/runtime/run-stdio.ts.
 */
import { accessSync, constants, existsSync, fstatSync, readFileSync, readdirSync, readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_PASSED_FD, type FdFact } from '../../src/runtime/run-stdio.ts';

/** Bounds the search for Claude Code's task directory where /proc is missing. */
const MAX_SCANNED_ENTRIES = 256;

export function fdFact(fd: number): FdFact | null {
  try {
    const stat = fstatSync(fd);
    const kind = stat.isFIFO() ? 'pipe' : stat.isSocket() ? 'socket' : stat.isFile() ? 'file' : stat.isCharacterDevice() ? 'char' : 'other';
    return { fd, kind, dev: stat.dev, ino: stat.ino, link: readLink(fd), access: null, cloexec: null };
  } catch {
    return null;
  }
}

function readLink(fd: number): string | null {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

/** O_ACCMODE and O_CLOEXEC from the octal `flags:` line of /proc/self/fdinfo/N. */
function openFlags(fd: number): { readonly access: number | null; readonly cloexec: boolean | null } {
  try {
    const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'latin1'))?.[1];
    if (flags === undefined) return { access: null, cloexec: null };
    const value = Number.parseInt(flags, 8);
    return { access: value & 0o3, cloexec: (value & 0o2000000) !== 0 };
  } catch {
    return { access: null, cloexec: null };
  }
}

/** Every open descriptor from 3 up to MAX_PASSED_FD; empty where /proc is missing. */
export function openFdFacts(): FdFact[] {
  let names: string[];
  try {
    names = readdirSync('/proc/self/fd');
  } catch {
    return [];
  }
  const facts: FdFact[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd < 3 || fd > MAX_PASSED_FD) continue;
    const link = readLink(fd);
    // The directory listing's own descriptor is closed by now.
    if (link === null) continue;
    facts.push({ fd, kind: 'other', dev: 0, ino: 0, link, ...openFlags(fd) });
  }
  return facts;
}

/** util-linux setpriv, at a fixed path so the line's PATH cannot choose it; null when absent. */
export function setprivPath(): string | null {
  for (const path of ['/usr/bin/setpriv', '/bin/setpriv']) if (existsSync(path)) return path;
  return null;
}

/**
 * Whether a signal that dumps core would write a core file if the wrapper re-raised it: only a soft limit of 0
 * (read from /proc/self/limits) rules it out. Unknown means possible.
 */
export function coreDumpsPossible(): boolean {
  try {
    const line = /^Max core file size\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'latin1'));
    return line?.[1] !== '0';
  } catch {
    return true;
  }
}

/**
 * Whether the shell would find `name` as an executable file on PATH (a name with a slash is left to exec). Checked
 * before spawning because the launcher in front of the program (setpriv) would otherwise report a missing program
 * in its own words.
 */
export function onPath(name: string, path: string | undefined): boolean {
  if (name.includes('/')) return true;
  for (const dir of (path ?? '').split(':')) {
    const candidate = join(dir === '' ? '.' : dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return true;
    } catch {
      // not here
    }
  }
  return false;
}

/**
 * Where /proc cannot name a regular file (macOS), the path Claude Code's task output file would have, found by
 * matching the file's device and inode among the `.output` files of `<tmp>/claude-<uid>/<project>/<session>/tasks`;
 * null if none.
 */
export function findTaskOutput(fact: FdFact, sessionIds: readonly string[], env: NodeJS.ProcessEnv): string | null {
  const roots = [...new Set([env['CLAUDE_CODE_TMPDIR'], env['TMPDIR'], '/tmp'].filter((root): root is string => root !== undefined && root !== ''))];
  for (const root of roots) {
    for (const owner of list(root).filter((name) => name.startsWith('claude-'))) {
      for (const project of list(join(root, owner))) {
        for (const session of sessionIds.filter((id) => id !== '' && !id.includes('/'))) {
          const tasks = join(root, owner, project, session, 'tasks');
          for (const name of list(tasks).filter((entry) => entry.endsWith('.output'))) {
            const path = join(tasks, name);
            try {
              const stat = statSync(path);
              if (stat.dev === fact.dev && stat.ino === fact.ino) return path;
            } catch {
              // gone meanwhile
            }
          }
        }
      }
    }
  }
  return null;
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir).slice(0, MAX_SCANNED_ENTRIES);
  } catch {
    return [];
  }
}
