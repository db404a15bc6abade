import { hasFlag, hasShortFlag, invocation } from '../../reduce/argv.ts';
import { foldLine, foldPaths } from '../../reduce/fold.ts';
import { groupPathsByDir, joinLines, lossy, makeView } from '../text.ts';
import type { CommandFilter, CommandOutput, StreamCandidate } from '../types.ts';
import { isDiagnostic, listingLines } from './lines.ts';

/** find actions whose output is not one path per line. */
const CUSTOM_OUTPUT = /^-(?:ls|fls|printf|fprintf|fprint|fprint0|print0|exec|execdir|ok|okdir)$/;

/** `find`, `fd`: paths grouped by directory (`dir/: a b; *.ts: c d`), every path kept, dependency trees folded. */
export const findFilter: CommandFilter = {
  name: 'find',
  matches(argv) {
    const inv = invocation(argv);
    return inv !== null && (inv.tool === 'find' || inv.tool === 'fd' || inv.tool === 'fdfind');
  },
  apply(output) {
    const inv = invocation(output.argv);
    if (inv === null || inv.args.some((a) => CUSTOM_OUTPUT.test(a))) return null;
    if (inv.tool !== 'find') {
      if (hasShortFlag(inv.args, 'l') || hasShortFlag(inv.args, '0') || hasFlag(inv.args, '--list-details', '--print0', '--exec', '--exec-batch', '--format')) return null;
      return pathListView('find', output, { tools: ['fd', 'fdfind'], starts: null, words: inv.args });
    }
    return pathListView('find', output, { tools: ['find'], starts: startingPoints(inv.args), words: inv.args });
  },
};

/** find's starting points: the operands before the first expression word (`.` when there are none). */
function startingPoints(args: readonly string[]): string[] {
  const starts: string[] = [];
  for (const arg of args) {
    if (/^-[HLP]$|^-D$|^-O\d$/.test(arg)) continue;
    if (arg.startsWith('-') || arg === '(' || arg === '!' || arg === ',') break;
    starts.push(arg);
  }
  return starts.length === 0 ? ['.'] : starts;
}

export interface PathListing {
  /** Program names whose `name: …` lines are diagnostics. */
  readonly tools: readonly string[];
  /** Where every path must start (find's starting points), or null when any relative path may appear. */
  readonly starts: readonly string[] | null;
  /** The command's words: dependency trees they name are not folded. */
  readonly words: readonly string[];
}

/** Groups a one-path-per-line listing by directory and folds dependency trees; null when a line cannot be a path. */
export function pathListView(name: string, output: CommandOutput, listing: PathListing): StreamCandidate | null {
  const { lines, truncated } = listingLines(output.stdout);
  const diagnostics: string[] = [];
  const paths: string[] = [];
  for (const line of lines) {
    if (line === truncated) continue;
    if (isDiagnostic(line, listing.tools)) diagnostics.push(line);
    else if (line === '') return null;
    else if (listing.starts !== null && !listing.starts.some((start) => line === start || line.startsWith(start.endsWith('/') ? start : `${start}/`))) return null;
    else paths.push(line);
  }
  if (paths.length < 4) return null;
  // `find .` prefixes every path with `./`; without it each path is the same relative path.
  const strip = paths.every((p) => p.startsWith('./') || p === '.');
  const shown = strip ? paths.filter((p) => p !== '.').map((p) => p.slice(2)) : paths;
  const { kept, folds } = foldPaths(shown, listing.words);
  const body = [...diagnostics, ...(strip && paths.includes('.') ? ['.'] : []), ...groupPathsByDir(kept), ...folds.map((f) => foldLine(f))];
  return makeView(name, output, lossy(joinLines(truncated === null ? body : [...body, truncated])), null);
}

const BRANCH = /^((?:[\u2502|][\u00a0 ]{3}|[\u00a0 ]{4})*)(?:[\u251c\u2514]\u2500\u2500|[|`]--)[\u00a0 ](.*)$/;

/** tree options that prefix names with metadata, print full paths, drop the drawing, or print another format. */
const TREE_DECLINED = /^-[A-Za-z]*[fiJXHpsughD]|^--(?:du|inodes|device|charset=(?!ascii|utf-?8)|fromfile|fromtabfile|info)/;

/** `tree`: the drawing becomes one line per directory (`dir/: children`); lines before the drawing and the final
 * counts line stay; dependency trees are folded. */
export const treeFilter: CommandFilter = {
  name: 'tree',
  matches(argv) {
    const inv = invocation(argv);
    return inv !== null && inv.tool === 'tree';
  },
  apply(output) {
    const inv = invocation(output.argv);
    if (inv === null || inv.args.some((a) => TREE_DECLINED.test(a))) return null;
    const { lines: all, truncated } = listingLines(output.stdout);
    // A cut-off last line would show a partial name as if it were a file: it is kept as it is instead.
    const lines = truncated === null ? all : all.slice(0, -1);
    const before: string[] = [];
    const after: string[] = [];
    const stack: string[] = [];
    // One entry per drawn name, with the root (the line just above the first branch) prefixed.
    const paths: string[] = [];
    const roots: string[] = [];
    let prefix: string | null = null;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] ?? '';
      const m = BRANCH.exec(line);
      if (m === null) {
        const next = lines[i + 1];
        // A line right above a branch is a root (tree prints one per operand); other lines before the first root are
        // warnings, and lines after the drawing are its counts.
        if (line !== '' && next !== undefined && BRANCH.test(next)) {
          roots.push(line);
          prefix = line === '.' ? '' : `${line.replace(/\/$/, '')}/`;
          stack.length = 0;
        } else if (prefix === null) before.push(line);
        else if (line !== '') after.push(line);
        continue;
      }
      if (prefix === null) return null;
      const depth = (m[1] ?? '').length / 4;
      if (depth > stack.length) return null;
      stack.length = depth;
      // A parent becomes a directory once it has a child, so mark it on the path list.
      const parent = `${prefix}${stack.join('/')}`;
      if (depth > 0 && paths[paths.length - 1] === parent) paths[paths.length - 1] = `${parent}/`;
      stack.push(m[2] ?? '');
      paths.push(`${prefix}${stack.join('/')}`);
    }
    if (roots.length === 0) return null;
    const { kept, folds } = foldPaths(paths, inv.args);
    // Only directories with children end in `/`, and they show up as the headers of their children's lines.
    const leaves = kept.filter((p) => !p.endsWith('/'));
    const grouped = groupPathsByDir(leaves);
    const body = [...before, ...(roots.length === 1 ? roots : []), ...grouped, ...folds.map((f) => foldLine(f)), ...after, ...(truncated === null ? [] : [truncated])];
    return makeView('tree', output, lossy(joinLines(body)), null);
  },
};
