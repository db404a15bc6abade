import { invocation } from '../argv.ts';
import { groupPathsByDir, joinLines, lossy, makeView, splitLines } from '../text.ts';
import type { CommandFilter, CommandOutput, FilterView } from '../types.ts';

/** `find`, `fd`: paths grouped by directory (`dir/: a b; *.ts: c d`), every path kept. */
export const findFilter: CommandFilter = {
  name: 'find',
  matches(argv) {
    const inv = invocation(argv);
    return inv !== null && (inv.tool === 'find' || inv.tool === 'fd' || inv.tool === 'fdfind');
  },
  apply(output) {
    const inv = invocation(output.argv);
    if (inv === null || inv.args.some((a) => /^-(?:ls|printf|fprint|exec|execdir|ok|print0)$/.test(a))) return null;
    return pathListView('find', output);
  },
};

/** Groups a one-path-per-line listing by directory; null when a line cannot be a path. */
export function pathListView(name: string, output: CommandOutput): FilterView | null {
  const lines = splitLines(output.stdout);
  if (lines.length < 4 || lines.some((p) => p === '' || p.includes('\r'))) return null;
  // `find .` prefixes every path with `./`; without it each path is the same relative path.
  const paths = lines.every((p) => p.startsWith('./')) ? lines.map((p) => p.slice(2)) : lines;
  return makeView(name, output, lossy(joinLines(groupPathsByDir(paths))), null);
}

/** `tree`: the drawing becomes one line per directory (`dir/: children`); the final counts line stays. */
export const treeFilter: CommandFilter = {
  name: 'tree',
  matches(argv) {
    const inv = invocation(argv);
    return inv !== null && inv.tool === 'tree';
  },
  apply(output) {
    const lines = splitLines(output.stdout);
    const stack: string[] = [];
    const paths: string[] = [];
    const other: string[] = [];
    let root: string | null = null;
    for (const line of lines) {
      // tree 2 indents with no-break spaces (U+00A0) after the vertical bar.
      const m = /^((?:[│|][\u00a0 ]{3}|[\u00a0 ]{4})*)(?:[├└`|]──[\u00a0 ]|[├└]--[\u00a0 ])(.*)$/.exec(line);
      if (m === null) {
        if (root === null && paths.length === 0 && line !== '') root = line;
        else if (line !== '') other.push(line);
        continue;
      }
      const depth = (m[1] ?? '').length / 4;
      stack.length = depth;
      // A parent becomes a directory once it has a child, so mark it on the path list.
      const parent = stack.join('/');
      if (depth > 0 && paths[paths.length - 1] === parent) paths[paths.length - 1] = `${parent}/`;
      stack.push(m[2] ?? '');
      paths.push(stack.join('/'));
    }
    // Only directories with children end in `/`, and they show up as the headers of their children's lines.
    const leaves = paths.filter((p) => !p.endsWith('/'));
    const prefix = root === null || root === '.' ? '' : `${root.replace(/\/$/, '')}/`;
    const grouped = groupPathsByDir(leaves.map((p) => `${prefix}${p}`));
    return makeView('tree', output, lossy(joinLines([...(root === null ? [] : [root]), ...grouped, ...other])), null);
  },
};
