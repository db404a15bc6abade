/**
 * Rewriting a file a person keeps (`syt compact`, `syt compact --restore`) where it is, and never through a symbolic
 * link: a `TODO.md` that links elsewhere (outside the project, into another repository, to a system file) must not be
 * what gets written. The link is refused when looked at (lstat) and again when opened (O_NOFOLLOW), so one swapped in
 * between the two is refused too.
 */
import { closeSync, constants, lstatSync, openSync, writeSync } from 'node:fs';

/** Null when `path` may be rewritten in place; otherwise why not. */
export function whyNotWritable(path: string): string | null {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return 'a symbolic link: it is never written through (compact the file it points to by its own path)';
    if (!stat.isFile()) return 'not a regular file';
    return null;
  } catch (error) {
    // A missing file is the caller's "cannot read" case, said in its words.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return (error as Error).message;
  }
}

/** Replaces the contents of the regular file at `path`; throws (ELOOP) on a symbolic link, without writing. */
export function writeInPlace(path: string, data: string): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_TRUNC | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const bytes = Buffer.from(data, 'utf8');
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
  } finally {
    closeSync(fd);
  }
}
