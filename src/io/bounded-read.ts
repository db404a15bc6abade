/**
 * The one way our offline tools (`syt analyze --log`, `syt cost history|simulate`, usage reports, the project scan,
 * transcript readers) read a file named by a person or found in a directory: regular files only, never past a size
 * cap, a gzip never inflated past its own cap. A FIFO, a device (`/dev/zero`), a socket or a directory is refused
 * instead of read: the file is opened with O_NONBLOCK (opening a FIFO would otherwise wait for a writer) and its type
 * is checked on the open descriptor (fstat), so what is checked is what is read. A dangling link is told apart from a
 * missing file, so a directory walk can skip it with a note.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync } from 'node:fs';
import { builtin } from '../store/builtin.ts';

/** What a transcript reader accepts by default: the largest real Claude Code transcripts are tens of MiB. */
export const MAX_READ_BYTES = 64 << 20;
/** What a gzip may inflate to: aider's `.md.gz` histories are far smaller; a bomb stops here. */
export const MAX_INFLATED_BYTES = 64 << 20;

export type ReadFailure = 'missing' | 'dangling link' | 'link' | 'not a regular file' | 'too large' | 'unreadable';
export type BoundedRead = { readonly ok: true; readonly bytes: Buffer } | { readonly ok: false; readonly failure: ReadFailure; readonly reason: string };

export interface ReadBounds {
  readonly maxBytes?: number;
  /** Inflate the file as gzip, to at most maxInflatedBytes. */
  readonly gunzip?: boolean;
  readonly maxInflatedBytes?: number;
  /** False: a symbolic link is refused (failure `link`) instead of followed, checked by the open itself (O_NOFOLLOW). */
  readonly followLinks?: boolean;
}

export function readBounded(path: string, bounds: ReadBounds = {}): BoundedRead {
  const maxBytes = bounds.maxBytes ?? MAX_READ_BYTES;
  const read = readRegular(path, maxBytes, bounds.followLinks ?? true);
  if (!read.ok || bounds.gunzip !== true) return read;
  const maxInflated = bounds.maxInflatedBytes ?? MAX_INFLATED_BYTES;
  try {
    return { ok: true, bytes: builtin('node:zlib').gunzipSync(read.bytes, { maxOutputLength: maxInflated }) };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') return { ok: false, failure: 'too large', reason: `inflates past the ${maxInflated}-byte bound` };
    return { ok: false, failure: 'unreadable', reason: `not gzip: ${(error as Error).message}` };
  }
}

/** readBounded, decoded as UTF-8. */
export function readBoundedText(path: string, bounds: ReadBounds = {}): { readonly ok: true; readonly text: string } | Extract<BoundedRead, { ok: false }> {
  const read = readBounded(path, bounds);
  return read.ok ? { ok: true, text: read.bytes.toString('utf8') } : read;
}

/** What a directory walk finds at `path` (following a link), without opening it. */
export function entryKind(path: string): 'file' | 'directory' | 'dangling link' | 'other' | 'missing' {
  try {
    const stat = statSync(path);
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : 'other';
  } catch {
    return isLink(path) ? 'dangling link' : 'missing';
  }
}

function readRegular(path: string, maxBytes: number, followLinks: boolean): BoundedRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (followLinks ? 0 : constants.O_NOFOLLOW));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ELOOP' && !followLinks) return { ok: false, failure: 'link', reason: 'a symbolic link (not followed)' };
    if (code === 'ENOENT') return isLink(path) ? { ok: false, failure: 'dangling link', reason: 'a link to nothing' } : { ok: false, failure: 'missing', reason: 'no such file' };
    return { ok: false, failure: 'unreadable', reason: (error as Error).message };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, failure: 'not a regular file', reason: `not a regular file (${kindOf(stat)})` };
    if (stat.size > maxBytes) return { ok: false, failure: 'too large', reason: `${stat.size} bytes, over the ${maxBytes}-byte bound` };
    // The file as it was when opened: a transcript still being appended to is read up to that size, never past it.
    const bytes = Buffer.alloc(stat.size);
    let length = 0;
    while (length < bytes.length) {
      const n = readSync(fd, bytes, length, bytes.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return { ok: true, bytes: length === bytes.length ? bytes : bytes.subarray(0, length) };
  } catch (error) {
    return { ok: false, failure: 'unreadable', reason: (error as Error).message };
  } finally {
    closeSync(fd);
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function kindOf(stat: ReturnType<typeof fstatSync>): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isDirectory()) return 'a directory';
  return 'not a file';
}
