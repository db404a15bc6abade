import { gitSubcommand, hasFlag, hasShortFlag, invocation } from '../argv.ts';
import { groupPathsByDir, joinLines, listName, lossy, makeView, splitLines, unchanged } from '../text.ts';
import type { CommandFilter, CommandOutput, FilterView } from '../types.ts';
import { encodeSearchPaths } from '../../compress/search-paths.ts';
import { searchPathSharingEnabled } from '../../config/flags.ts';

const GREPS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack']);

function searchArgs(argv: readonly string[]): readonly string[] | null {
  const git = gitSubcommand(argv);
  if (git !== null) return git.sub === 'grep' ? git.args : null;
  const inv = invocation(argv);
  return inv !== null && GREPS.has(inv.tool) ? inv.args : null;
}

/** grep, rg, git grep: `path:line:text` listings get lossless search-path sharing; file listings (`-l`) are grouped
 * by directory and count listings (`-c`) lose their repeated directory prefixes (both lossy, retrievable). */
export const searchFilter: CommandFilter = {
  name: 'search',
  matches: (argv) => searchArgs(argv) !== null,
  apply(output) {
    const args = searchArgs(output.argv);
    if (args === null) return null;
    if (hasShortFlag(args, 'l') || hasShortFlag(args, 'L') || hasFlag(args, '--files-with-matches', '--files', '--files-without-match', '--name-only')) {
      return listingView(output);
    }
    if (hasShortFlag(args, 'c') || hasFlag(args, '--count', '--count-matches')) return countView(output);
    if (!searchPathSharingEnabled(process.env)) return null;
    const encoded = encodeSearchPaths(output.stdout);
    return encoded === null ? null : makeView('search', output, unchanged(encoded), null);
  },
};

function listingView(output: CommandOutput): FilterView | null {
  const paths = splitLines(output.stdout);
  if (paths.length < 4 || paths.some((p) => p === '')) return null;
  return makeView('search', output, lossy(joinLines(groupPathsByDir(paths))), null);
}

function countView(output: CommandOutput): FilterView | null {
  const dirs = new Map<string, string[]>();
  for (const line of splitLines(output.stdout)) {
    const m = /^(.*):(\d+)$/.exec(line);
    if (m === null) return null;
    const path = m[1] ?? '';
    const cut = path.lastIndexOf('/');
    const dir = path.slice(0, cut + 1);
    const list = dirs.get(dir) ?? [];
    list.push(`${listName(path.slice(cut + 1))} ${m[2] ?? ''}`);
    dirs.set(dir, list);
  }
  const result = [...dirs].map(([dir, entries]) => `${dir === '' ? '' : `${dir}: `}${entries.join(', ')}`);
  return makeView('search', output, lossy(joinLines(result)), null);
}
