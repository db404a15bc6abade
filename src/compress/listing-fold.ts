import { elide, retrievable, type Candidate } from '../reduce/candidate.ts';
import { foldItems, foldLine } from '../reduce/fold.ts';
import { encodeSearchPaths, searchRecordPath } from './search-paths.ts';
import type { Compressor } from './types.ts';

/**
 * Operation `dependency_fold`, retrievable: in a search tool's result (Grep `path:line:text` hits), the hits inside
 * dependency and build trees (`node_modules`, `.venv`, `target`…) become one line per tree with a count; every other
 * line stays verbatim and in order. The whole original is stashed and named in a last line.
 *
 * A post_tool result carries no tool input, so "never fold what was asked for" is read from the result itself:
 * `foldItems` folds nothing when every hit lies in folded trees (a search scoped to `node_modules/x`).
 */
function fold(text: string, share: boolean): Candidate | null {
  const endsWithNewline = text.endsWith('\n');
  const lines = (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  const pathOf = (line: string): string | null => searchRecordPath(line.endsWith('\r') ? line.slice(0, -1) : line);
  if (lines.some((line) => pathOf(line) === null)) return null;
  const items = foldItems(lines, pathOf, new Set());
  if (items === null) return null;
  let folded = 0;
  const kept: string[] = [];
  const folds: string[] = [];
  const shown = items.map((item) => {
    if ('kept' in item) {
      kept.push(item.kept);
      return item.kept;
    }
    folded += item.fold.count;
    const line = foldLine(item.fold, 'matching lines');
    folds.push(line);
    return line;
  });
  const { entry, marker } = elide(text);
  const footer = `[tokenless: ${folded} lines in dependency trees folded; full output ${marker}]`;
  // Shared: the kept hits as one search-path-shared block, then the fold lines; otherwise every line in its place.
  const encoded = share ? encodeSearchPaths(`${kept.join('\n')}\n`) : null;
  const body = encoded === null ? `${shown.join('\n')}\n` : `${encoded}${folds.join('\n')}\n`;
  const operations = encoded === null ? ['dependency_fold'] : ['dependency_fold', 'search_path_sharing'];
  return retrievable(`${body}${footer}${endsWithNewline ? '\n' : ''}`, operations, [entry]);
}

export const dependencyFold: Compressor = (input) => fold(input.content, false);

/** `dependency_fold` then search-path sharing of the kept hits (when sharing is on): usually the shortest view. */
export const sharedDependencyFold: Compressor = (input, context) => (context.searchPathSharing ? fold(input.content, true) : null);
