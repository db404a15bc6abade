import { gitSubcommand, hasFlag, hasShortFlag, invocation } from '../../reduce/argv.ts';
import { foldItems, foldLine, foldPaths, mentionedTrees } from '../../reduce/fold.ts';
import { isDiagnostic, listingLines } from '../fs/lines.ts';
import { groupPathsByDir, joinLines, listName, lossy, makeView, stripAnsi, unchanged } from '../text.ts';
import type { CommandFilter, CommandOutput, StreamCandidate } from '../types.ts';
import { encodeSearchPaths, searchRecordPath, splitKeepingEndings } from '../../compress/search-paths.ts';
import type { ReduceContext } from '../../reduce/context.ts';

const GREPS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack']);
const TOOLS = [...GREPS, 'git'];

function searchArgs(argv: readonly string[]): readonly string[] | null {
  const git = gitSubcommand(argv);
  if (git !== null) return git.sub === 'grep' ? git.args : null;
  const inv = invocation(argv);
  return inv !== null && GREPS.has(inv.tool) ? inv.args : null;
}

/** grep, rg, git grep: `path:line:text` listings get lossless search-path sharing, or lose their dependency-tree hits
 * to one line per tree; file listings (`-l`, `--files`) are grouped by directory and count listings (`-c`) lose
 * their repeated directory prefixes (both lossy, retrievable). */
export const searchFilter: CommandFilter = {
  name: 'search',
  matches: (argv) => searchArgs(argv) !== null,
  apply(output, context) {
    const args = searchArgs(output.argv);
    if (args === null) return null;
    if (hasShortFlag(args, 'l') || hasShortFlag(args, 'L') || hasFlag(args, '--files-with-matches', '--files', '--files-without-match', '--name-only')) {
      return listingView(output, args);
    }
    if (hasShortFlag(args, 'c') || hasFlag(args, '--count', '--count-matches')) return countView(output, args);
    return recordsView(output, args, context);
  },
};

function listingView(output: CommandOutput, args: readonly string[]): StreamCandidate | null {
  const { lines, truncated } = listingLines(output.stdout);
  const diagnostics: string[] = [];
  const paths: string[] = [];
  for (const line of lines) {
    if (line === truncated) continue;
    if (line === '') return null;
    if (isDiagnostic(line, TOOLS)) diagnostics.push(line);
    else paths.push(line);
  }
  if (paths.length < 4) return null;
  const { kept, folds } = foldPaths(paths, args);
  const body = [...diagnostics, ...groupPathsByDir(kept), ...folds.map((f) => foldLine(f, 'files'))];
  return makeView('search', output, lossy(joinLines(truncated === null ? body : [...body, truncated])), null);
}

function countView(output: CommandOutput, args: readonly string[]): StreamCandidate | null {
  const { lines, truncated } = listingLines(output.stdout);
  const diagnostics: string[] = [];
  const entries: Array<{ path: string; count: string }> = [];
  for (const line of lines) {
    if (line === truncated) continue;
    const m = /^(.*):(\d+)$/.exec(line);
    if (m === null) {
      if (!isDiagnostic(line, TOOLS)) return null;
      diagnostics.push(line);
    } else entries.push({ path: m[1] ?? '', count: m[2] ?? '' });
  }
  const items = foldItems(entries, (e) => e.path, mentionedTrees(args));
  const dirs = new Map<string, string[]>();
  const folds: string[] = [];
  for (const item of items ?? entries.map((kept) => ({ kept }))) {
    if ('fold' in item) {
      folds.push(foldLine(item.fold, 'files'));
      continue;
    }
    const { path, count } = item.kept;
    const cut = path.lastIndexOf('/');
    const dir = path.slice(0, cut + 1);
    const list = dirs.get(dir) ?? [];
    list.push(`${listName(path.slice(cut + 1))} ${count}`);
    dirs.set(dir, list);
  }
  const result = [...dirs].map(([dir, names]) => `${dir === '' ? '' : `${dir}: `}${names.join(', ')}`);
  const body = [...diagnostics, ...result, ...folds, ...(truncated === null ? [] : [truncated])];
  return makeView('search', output, lossy(joinLines(body)), null);
}

/**
 * `path:line:text` hits. Hits inside dependency trees the command did not name fold to one line per tree (lossy), the
 * other hits stay verbatim (search-path shared when it is on); without a fold the sharing alone is lossless. Coloured
 * hits (`--color=always`) are read without their colour codes, which makes any view of them lossy.
 */
function recordsView(output: CommandOutput, args: readonly string[], context: ReduceContext): StreamCandidate | null {
  const sharing = context.searchPathSharing;
  const coloured = output.stdout.includes('\u001b[');
  const text = coloured ? stripAnsi(output.stdout) : output.stdout;
  const lines = splitKeepingEndings(text);
  if (!lines.every((line) => searchRecordPath(line) !== null)) return null;
  const items = foldItems(lines, searchRecordPath, mentionedTrees(args));
  if (items === null) {
    const encoded = sharing ? encodeSearchPaths(text) : null;
    if (!coloured) return encoded === null ? null : makeView('search', output, unchanged(encoded), null);
    return makeView('search', output, lossy(encoded ?? text), null);
  }
  const kept = items.flatMap((item) => ('kept' in item ? [item.kept] : [])).join('');
  const folds = items.flatMap((item) => ('fold' in item ? [foldLine(item.fold, 'matching lines')] : []));
  const shown = (sharing ? encodeSearchPaths(kept) : null) ?? kept;
  const separator = shown === '' || shown.endsWith('\n') ? '' : '\n';
  return makeView('search', output, lossy(`${shown}${separator}${joinLines(folds)}`), null);
}
