import { elide, retrievable } from '../runtime/candidate.ts';
import { foldItems, foldLine } from '../filters/fold.ts';
import { searchRecordPath } from './search-paths.ts';
import type { Compressor } from './types.ts';

/**
 * Operation `dependency_fold`, retrievable: in a search tool's result (Grep `path:line:text` hits), the hits inside
 * dependency and build trees (`node_modules`, `.venv`, `target`…) become one line per tree with a count; every other
 * line stays verbatim and in order. The whole original is stashed and named in a last line.
 *
 * A post_tool result carries no tool input, so "never fold what was asked for" is read from the result itself:
 * `foldItems` folds nothing when every hit lies in folded trees (a search scoped to `node_modules/x`).
 */
export const dependencyFold: Compressor = (input) => {
  const text = input.content;
  const endsWithNewline = text.endsWith('\n');
  const lines = (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  const pathOf = (line: string): string | null => searchRecordPath(line.endsWith('\r') ? line.slice(0, -1) : line);
  if (lines.some((line) => pathOf(line) === null)) return null;
  const items = foldItems(lines, pathOf, new Set());
  if (items === null) return null;
  let folded = 0;
  const shown = items.map((item) => {
    if ('kept' in item) return item.kept;
    folded += item.fold.count;
    return foldLine(item.fold, 'matching lines');
  });
  const { entry, marker } = elide(text);
  const footer = `[tokenless: ${folded} lines in dependency trees folded; full output ${marker}]`;
  return retrievable(`${shown.join('\n')}\n${footer}${endsWithNewline ? '\n' : ''}`, ['dependency_fold'], [entry]);
};
