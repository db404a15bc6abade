import { gitSubcommand, hasFlag } from '../argv.ts';
import { joinLines, lossy, makeView, splitLines } from '../text.ts';
import type { CommandFilter } from '../types.ts';

/** `git diff`: every hunk kept verbatim; only the four-line file header shrinks to one `diff path` line. */
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

/** Path named by `diff --git a/P b/P`, when both sides agree (otherwise the raw header stays). */
function headerPath(line: string): string | null {
  const rest = line.slice('diff --git '.length);
  const half = (rest.length - 1) / 2;
  if (!Number.isInteger(half)) return null;
  const a = rest.slice(0, half);
  const b = rest.slice(half + 1);
  return a.startsWith('a/') && b.startsWith('b/') && a.slice(2) === b.slice(2) ? a.slice(2) : null;
}

/** Compacts the file headers of a unified git diff; lines outside a diff pass through unchanged. Returns null when
 * the text has no `diff --git` header. Hunk bodies are tracked by their line counts so content is never mistaken
 * for a header. */
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
    const path = headerPath(line);
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
    result.push(`${path === null && renamed.from === undefined ? line : `diff ${name}`}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`);
    // Hunks, each consumed exactly by its line counts.
    while (i < lines.length && (lines[i] ?? '').startsWith('@@')) {
      const header = lines[i] ?? '';
      result.push(header);
      i++;
      const counts = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(header);
      if (counts === null) return null;
      let oldLeft = Number(counts[1] ?? '1');
      let newLeft = Number(counts[2] ?? '1');
      while (i < lines.length && (oldLeft > 0 || newLeft > 0 || (lines[i] ?? '').startsWith('\\'))) {
        const body = lines[i] ?? '';
        const mark = body[0];
        if (mark === ' ' || body === '') {
          oldLeft--;
          newLeft--;
        } else if (mark === '-') oldLeft--;
        else if (mark === '+') newLeft--;
        else if (mark !== '\\') return null;
        result.push(body);
        i++;
      }
    }
  }
  return sawDiff ? result : null;
}
