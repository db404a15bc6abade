import { alignedToTsv } from '../../reduce/aligned-table.ts';
import { stripAnsi } from '../text.ts';

/** A header and at least one row: the command says it is a table, so a single container is worth compacting. */
const TABLE_MIN_LINES = 2;

/**
 * Whether a header row came out as one title per cell. docker, podman and kubectl separate titles by 2+ spaces and
 * put at most one space inside one (`CONTAINER ID`), so a header cell holding a run of spaces means a row strayed
 * into a gutter and two columns merged (hand-edited or cut rows): the cells under it would be read in the wrong
 * column. An empty title means a column with no header: not a table these tools print.
 */
function headerIsWhole(tsvBlock: string): boolean {
  const header = (tsvBlock.split('\n', 1)[0] ?? '').split('\t');
  return header.every((title) => title !== '' && !title.includes('  '));
}

/**
 * The listing as tab-separated cells, or null when it is not one these tools print. `kubectl get all` and
 * `kubectl get a,b` print one table per kind with a blank line between: each is compacted on its own columns.
 * Colour is dropped first (the view is lossy and keeps a retrieval line); a line the columns do not fit declines.
 */
export function compactListing(text: string): string | null {
  const plain = stripAnsi(text);
  const endsWithNewline = plain.endsWith('\n');
  const blocks = (endsWithNewline ? plain.slice(0, -1) : plain).split('\n\n');
  const compacted: string[] = [];
  for (const block of blocks) {
    const tsv = alignedToTsv(block, TABLE_MIN_LINES);
    if (tsv === null || !headerIsWhole(tsv)) return null;
    compacted.push(tsv);
  }
  return compacted.join('\n\n') + (endsWithNewline ? '\n' : '');
}
