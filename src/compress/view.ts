/** Shared pieces of content views: the footer naming a stashed original, and the trailing whitespace views keep. */
import { elide, retrievable, type Candidate } from '../reduce/candidate.ts';

/** A retrievable view: `view`, then one line naming the stashed whole original. */
export function withWholeOriginal(original: string, view: string, operations: readonly string[], what: string): Candidate {
  const { entry, marker } = elide(original);
  const separator = view === '' || view.endsWith('\n') ? '' : '\n';
  return retrievable(`${view}${separator}[tokenless: ${what}; full output ${marker}]\n`, operations, [entry]);
}

/** The whitespace the original ended with; views keep it so the next output never runs onto their last line. */
export function trailingWhitespace(text: string): string {
  let start = text.length;
  while (start > 0 && /\s/.test(text[start - 1] as string)) start--;
  return text.slice(start);
}

