import { gitSubcommand, hasFlag } from '../../reduce/argv.ts';
import { joinLines, lossy, makeView, splitLines } from '../text.ts';
import type { CommandFilter } from '../types.ts';
import { diffHeaderPath } from '../../reduce/diff-header.ts';
import { bulkKind } from './bulk.ts';

/** `git diff` (one commit, a range, staged): every hunk of a source file kept verbatim, the four-line file header
 * shrunk to one `diff path` line; lockfiles, generated, minified and vendored files collapse to one line each. */
export const gitDiffFilter: CommandFilter = {
  name: 'git-diff',
  matches(argv) {
    const git = gitSubcommand(argv);
    return git !== null && git.sub === 'diff';
  },
  apply(output) {
    const git = gitSubcommand(output.argv);
    if (git === null || hasFlag(git.args, '--stat', '--name-only', '--name-status', '--numstat', '--shortstat')) {
      return null;
    }
    const lines = splitLines(output.stdout);
    const compacted = compactDiff(lines);
    if (compacted === null) return null;
    return makeView('git-diff', output, lossy(joinLines(compacted)), null);
  },
};

/** Compacts the file headers of a unified git diff and collapses bulk files (see bulk.ts); lines outside a diff pass
 * through unchanged. Returns null when the text has no `diff --git` header, or a hunk is malformed. */
export function compactDiff(lines: readonly string[]): string[] | null {
  const result: string[] = [];
  let sawDiff = false;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (!line.startsWith('diff --git ')) {
      result.push(line);
      i++;
      continue;
    }
    sawDiff = true;
    const path = diffHeaderPath(line);
    const notes: string[] = [];
    let renamed: { from?: string; to?: string } = {};
    i++;
    // Extended header lines up to the first hunk, the next file, or a binary notice.
    while (i < lines.length) {
      const h = lines[i] ?? '';
      if (h.startsWith('@@') || h.startsWith('diff --git ')) break;
      if (h.startsWith('index ') || h.startsWith('similarity index') || h.startsWith('dissimilarity index')) {
        i++;
      } else if (h.startsWith('--- ') || h.startsWith('+++ ')) {
        i++;
      } else if (h.startsWith('new file mode')) {
        notes.push('new');
        i++;
      } else if (h.startsWith('deleted file mode')) {
        notes.push('deleted');
        i++;
      } else if (h.startsWith('rename from ')) {
        renamed = { ...renamed, from: h.slice('rename from '.length) };
        i++;
      } else if (h.startsWith('rename to ')) {
        renamed = { ...renamed, to: h.slice('rename to '.length) };
        i++;
      } else if (/^(?:old|new) mode /.test(h)) {
        notes.push(h);
        i++;
      } else if (h.startsWith('Binary files ')) {
        notes.push('binary');
        i++;
      } else {
        break;
      }
    }
    const name =
      renamed.from !== undefined && renamed.to !== undefined ? `${renamed.from} -> ${renamed.to}` : path ?? line;
    const head = `${path === null && renamed.from === undefined ? line : `diff ${name}`}`;
    const hunks = readHunks(lines, i);
    if (hunks === null) return null;
    i = hunks.end;
    const kind = path === null && renamed.to === undefined ? null : bulkKind(renamed.to ?? path ?? '', hunks.body);
    if (kind !== null && hunks.body.length > COLLAPSE_MIN_LINES) {
      // One line instead of the hunks: which file, what kind, how much changed.
      const counts = `+${hunks.added} -${hunks.removed} in ${hunks.count} hunk${hunks.count === 1 ? '' : 's'}`;
      result.push(`${head} (${[...notes, `${kind}, collapsed: ${counts}`].join(', ')})`);
      continue;
    }
    result.push(`${head}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`, ...hunks.body);
  }
  return sawDiff ? result : null;
}

/** A collapsed file costs one line; below this many hunk lines collapsing saves too little to hide them. */
const COLLAPSE_MIN_LINES = 8;

interface Hunks {
  readonly body: string[];
  readonly end: number;
  readonly added: number;
  readonly removed: number;
  readonly count: number;
}

/** The hunks starting at `start`, each consumed exactly by its line counts so content is never mistaken for a
 * header; null when a hunk is malformed. */
function readHunks(lines: readonly string[], start: number): Hunks | null {
  const body: string[] = [];
  let i = start;
  let added = 0;
  let removed = 0;
  let count = 0;
  while (i < lines.length && (lines[i] ?? '').startsWith('@@')) {
    const header = lines[i] ?? '';
    body.push(header);
    count++;
    i++;
    const counts = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(header);
    if (counts === null) return null;
    let oldLeft = Number(counts[1] ?? '1');
    let newLeft = Number(counts[2] ?? '1');
    while (i < lines.length && (oldLeft > 0 || newLeft > 0 || (lines[i] ?? '').startsWith('\\'))) {
      const line = lines[i] ?? '';
      const mark = line[0];
      if (mark === ' ' || line === '') {
        oldLeft--;
        newLeft--;
      } else if (mark === '-') {
        oldLeft--;
        removed++;
      } else if (mark === '+') {
        newLeft--;
        added++;
      } else if (mark !== '\\') return null;
      body.push(line);
      i++;
    }
  }
  return { body, end: i, added, removed, count };
}
