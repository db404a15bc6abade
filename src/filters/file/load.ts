/**
 * Reads the filter files of both folders into one set: the filters that may run (the person's own, and the
 * project's that are trusted at their current hash), the project files that wait for trust, and every problem with
 * file and line. Never throws: a bad file is a problem in the set, never a broken hook.
 */
import { closeSync, constants, fstatSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileFilter, FilterScope } from './filter.ts';
import { FILTER_FILE_MAX_BYTES, parseFilterFile, type FilterFileProblem } from './parse.ts';
import { contentHash, readTrust } from './trust.ts';
import type { FilterDirs } from './locate.ts';

/** More files than this in one folder are not read (a filter folder is a handful of files). */
const MAX_FILES_PER_DIR = 200;

export interface FilterFileEntry {
  readonly path: string;
  readonly scope: FilterScope;
  readonly hash: string;
  readonly trusted: boolean;
  readonly filters: readonly FileFilter[];
}

export interface FilterSet {
  /** The filters that run, project files first (a project's view of its own command wins over the person's). */
  readonly active: readonly FileFilter[];
  readonly files: readonly FilterFileEntry[];
  readonly problems: readonly FilterFileProblem[];
}

export const EMPTY_FILTER_SET: FilterSet = { active: [], files: [], problems: [] };

export function loadFilterSet(dirs: FilterDirs, dataDir: string): FilterSet {
  const trust = readTrust(dataDir);
  const files: FilterFileEntry[] = [];
  const problems: FilterFileProblem[] = [];
  const folders: [string, FilterScope][] = dirs.project === null ? [[dirs.user, 'user']] : [[dirs.project, 'project'], [dirs.user, 'user']];
  for (const [dir, scope] of folders) {
    for (const path of tomlFiles(dir, problems)) {
      const text = readBounded(path, problems);
      if (text === null) continue;
      const hash = contentHash(text);
      const parsed = parseFilterFile(text, path, scope);
      problems.push(...parsed.problems);
      files.push({ path, scope, hash, trusted: scope === 'user' || trust.get(path) === hash, filters: parsed.filters });
    }
  }
  return { active: files.filter((file) => file.trusted).flatMap((file) => file.filters), files, problems };
}

function tomlFiles(dir: string, problems: FilterFileProblem[]): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.toml')).sort();
  } catch {
    return [];
  }
  if (names.length > MAX_FILES_PER_DIR) {
    problems.push({ path: dir, line: null, message: `more than ${MAX_FILES_PER_DIR} filter files: only the first ${MAX_FILES_PER_DIR} are read` });
    names = names.slice(0, MAX_FILES_PER_DIR);
  }
  return names.map((name) => join(dir, name));
}

/** Regular files only (a FIFO would hang the hook, a link could point anywhere), and no larger than a filter can be.
 * Opened without following links and without blocking, then checked on the open descriptor, so nothing can be
 * swapped in between the check and the read. */
function readBounded(path: string, problems: FilterFileProblem[]): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    problems.push({ path, line: null, message: code === 'ELOOP' ? 'a symbolic link: filter files are read only as regular files' : `cannot be read: ${code ?? 'error'}` });
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      problems.push({ path, line: null, message: 'not a regular file (FIFOs and devices are not read)' });
      return null;
    }
    if (stat.size > FILTER_FILE_MAX_BYTES) {
      problems.push({ path, line: null, message: `larger than ${FILTER_FILE_MAX_BYTES / 1024} KB` });
      return null;
    }
    return readFileSync(fd, 'utf8');
  } catch (error) {
    problems.push({ path, line: null, message: `cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}` });
    return null;
  } finally {
    closeSync(fd);
  }
}
