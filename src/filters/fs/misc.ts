import { invocation } from '../../reduce/argv.ts';
import { foldItems, foldLine, foldRoot, mentionedTrees } from '../../reduce/fold.ts';
import { joinLines, listName, lossy, makeView } from '../text.ts';
import type { CommandFilter, CommandOutput, StreamCandidate } from '../types.ts';
import { isDiagnostic, listingLines } from './lines.ts';

/** `name count` entries grouped by directory (`lib/: application.js 631, express.js 81`), in order of first appearance. */
function byDirectory(entries: ReadonlyArray<{ path: string; value: string }>): string[] {
  const dirs = new Map<string, string[]>();
  for (const { path, value } of entries) {
    const cut = path.replace(/\/$/, '').lastIndexOf('/');
    const dir = path.slice(0, cut + 1);
    const list = dirs.get(dir) ?? [];
    list.push(`${listName(path.slice(cut + 1))} ${value}`);
    dirs.set(dir, list);
  }
  return [...dirs].map(([dir, names]) => `${dir === '' ? '' : `${dir}: `}${names.join(', ')}`);
}

/** Column-wise sums of `a/b/c` count values, spelled the same way; null when they are not all plain numbers. */
function sums(entries: ReadonlyArray<{ value: string }>): string | null {
  const totals: number[] = [];
  for (const { value } of entries) {
    const columns = value.split('/');
    if (columns.some((c) => !/^\d+$/.test(c)) || (totals.length > 0 && columns.length !== totals.length)) return null;
    columns.forEach((c, i) => (totals[i] = (totals[i] ?? 0) + Number(c)));
  }
  return totals.join('/');
}

/**
 * Parses `VALUE SEP PATH` lines; diagnostics (`du: cannot read …`) are kept verbatim, a cut-off last line stays as it
 * is, any other unrecognised line declines the whole output.
 */
function valueListing(
  output: CommandOutput,
  tool: string,
  entry: RegExp,
  fold: boolean,
): StreamCandidate | null {
  const inv = invocation(output.argv);
  if (inv === null) return null;
  const { lines, truncated } = listingLines(output.stdout);
  const diagnostics: string[] = [];
  const entries: Array<{ path: string; value: string }> = [];
  const tail: string[] = [];
  for (const line of lines) {
    if (line === truncated) continue;
    if (isDiagnostic(line, [tool])) {
      diagnostics.push(line);
      continue;
    }
    const m = entry.exec(line);
    if (m === null) return null;
    entries.push({ path: m[2] ?? '', value: (m[1] ?? '').trim().split(/\s+/).join('/') });
  }
  // The grand total's label is translated (`total`, `insgesamt`, `合計`): it is the last line when its counts are
  // the sums of the others' (wc), or when it is labelled as coreutils labels it in English (du -c).
  const last = entries[entries.length - 1];
  if (last !== undefined && entries.length >= 3 && (last.path === 'total' || sums(entries.slice(0, -1)) === last.value)) {
    entries.pop();
    tail.push(`${last.path} ${last.value}`);
  }
  const exempt = mentionedTrees(inv.args);
  // A tree's own line (du prints `92<TAB>./node_modules` after its contents) is its size: it stays, its contents fold.
  const pathOf = (e: { path: string }): string | null => {
    const path = e.path.replace(/\/$/, '');
    return foldRoot(path, exempt) === path ? null : path;
  };
  const items = fold ? foldItems(entries, pathOf, exempt) : null;
  const kept = items === null ? entries : items.flatMap((item) => ('kept' in item ? [item.kept] : []));
  const folds = items === null ? [] : items.flatMap((item) => ('fold' in item ? [foldLine(item.fold)] : []));
  const body = [...diagnostics, ...byDirectory(kept), ...folds, ...tail, ...(truncated === null ? [] : [truncated])];
  return makeView(tool, output, lossy(joinLines(body)), null);
}

/** `wc`: counts grouped by directory (`lib/: application.js 631, express.js 81`); the total line stays. */
export const wcFilter: CommandFilter = {
  name: 'wc',
  matches(argv) {
    const inv = invocation(argv);
    return inv !== null && inv.tool === 'wc';
  },
  apply(output) {
    return valueListing(output, 'wc', /^\s*((?:\d+\s+)*\d+) (.+)$/, false);
  },
};

/** `du`: `SIZE<TAB>path` lines become `path SIZE`, grouped by directory; `du -a` dependency trees are folded. */
export const duFilter: CommandFilter = {
  name: 'du',
  matches(argv) {
    const inv = invocation(argv);
    return inv !== null && inv.tool === 'du';
  },
  apply(output) {
    return valueListing(output, 'du', /^(\S+)\t(.+)$/, true);
  },
};
