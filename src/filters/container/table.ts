import { alignedToTsv } from '../../reduce/aligned-table.ts';
import { stripAnsi } from '../text.ts';

/** A header and at least one row: the command says it is a table, so a single container is worth compacting. */
const TABLE_MIN_LINES = 2;

/**
 * Whether every column has a title. docker, podman and kubectl title every column (`alignedToTsv` already refuses
 * a title holding a run of spaces, two columns merged by a row that strayed into their gutter); an empty title is
 * a column these tools do not print, e.g. a warning line standing where the header should be.
 */
function headerIsWhole(tsvBlock: string): boolean {
  return (tsvBlock.split('\n', 1)[0] ?? '').split('\t').every((title) => title !== '');
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

/**
 * Tokens the estimate misses in a tab-separated view: it counts a lone tab as free, like the space a word absorbs,
 * but o200k splits `\tword` in two where ` word` is one token. Measured on the real listings of
 * test/fixtures/container, a tab saved 0.2-0.8 o200k tokens per gutter, not the one the estimate credits, so small
 * tables grew once their retrieval line was added; charging each tab keeps those raw.
 */
export function tabsMissed(tsv: string): number {
  let tabs = 0;
  for (let i = tsv.indexOf('\t'); i >= 0; i = tsv.indexOf('\t', i + 1)) tabs++;
  return tabs;
}
