/**
 * Reads the filter folders' files, bounded: `*.toml` regular files only, through src/io/bounded-read.ts without
 * following links (a FIFO would hang the hook, a link could point anywhere), no larger than a filter can be, at most
 * 200 a folder.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readBoundedText } from '../../io/bounded-read.ts';
import type { FileFilter, FilterScope } from './filter.ts';
import type { FilterDirs } from './locate.ts';
import { contentHash } from './content-hash.ts';

/** Filter files larger than this are refused unread: a filter is a page of patterns, not a data set. */
export const FILTER_FILE_MAX_BYTES = 256 * 1024;
/** More files than this in one folder are not read (a filter folder is a handful of files). */
const MAX_FILES_PER_DIR = 200;

export interface FilterFileProblem {
  readonly path: string;
  /** 1-based, when it can be told. */
  readonly line: number | null;
  readonly message: string;
}

export interface RawFilterFile {
  readonly path: string;
  readonly scope: FilterScope;
  readonly text: string;
  /** fileStamp before and after the read, when both agree (null: changed while read, or not stat-able). */
  readonly stamp: string | null;
}

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

/** Both folders' files, the project's first. */
export function readFilterFiles(dirs: FilterDirs): { files: RawFilterFile[]; problems: FilterFileProblem[] } {
  const files: RawFilterFile[] = [];
  const problems: FilterFileProblem[] = [];
  for (const { path, scope } of listFilterFiles(dirs, problems)) {
    const before = fileStamp(path);
    const text = readFilterFile(path, problems);
    if (text !== null) files.push({ path, scope, text, stamp: before !== null && before === fileStamp(path) ? before : null });
  }
  return { files, problems };
}

/** Both folders' `*.toml` names in the order they apply, the project's first; nothing is opened. */
export function listFilterFiles(dirs: FilterDirs, problems: FilterFileProblem[] = []): { path: string; scope: FilterScope }[] {
  const folders: [string, FilterScope][] = dirs.project === null ? [[dirs.user, 'user']] : [[dirs.project, 'project'], [dirs.user, 'user']];
  return folders.flatMap(([dir, scope]) => tomlFiles(dir, problems).map((path) => ({ path, scope })));
}

/**
 * What changes whenever a file's content can have changed (device, inode, size, modification and change times in
 * nanoseconds), without opening it; null for anything but a regular file (a link is not followed).
 */
export function fileStamp(path: string): string | null {
  try {
    const stat = lstatSync(path, { bigint: true });
    return stat.isFile() ? `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}` : null;
  } catch {
    return null;
  }
}

/**
 * Whether a file may run: the person's own always, a project's only at the hash it was trusted at (`hash`, when the
 * caller has it already; else taken here, and only for a project file that has a pin).
 */
export function isTrusted(file: Pick<RawFilterFile, 'scope' | 'path' | 'text'>, trust: ReadonlyMap<string, string>, hash?: string): boolean {
  if (file.scope === 'user') return true;
  const pinned = trust.get(file.path);
  return pinned !== undefined && pinned === (hash ?? contentHash(file.text));
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

/** One filter file's text, or a problem: read through the offline tools' bounded reader, links not followed. */
export function readFilterFile(path: string, problems: FilterFileProblem[] = []): string | null {
  const read = readBoundedText(path, { maxBytes: FILTER_FILE_MAX_BYTES, followLinks: false });
  if (read.ok) return read.text;
  const message =
    read.failure === 'link' ? 'a symbolic link: filter files are read only as regular files'
    : read.failure === 'too large' ? `larger than ${FILTER_FILE_MAX_BYTES / 1024} KB`
    : read.failure === 'not a regular file' ? read.reason
    : `cannot be read: ${read.reason}`;
  problems.push({ path, line: null, message });
  return null;
}
