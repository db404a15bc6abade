/**
 * Candidates for a command's captured output. `tokenless run` writes stdout and stderr to their own descriptors, so
 * a command's candidate keeps the two streams apart; its `output` (what arbitration measures and stats record) is
 * stdout then stderr. Command filters build theirs from per-stream views (`fromStreams`); a content compressor's
 * candidate for stdout becomes one through `onStdout`. Both then go through the same arbitration and commit.
 */
import { KEY_HEX_LENGTH, retrievalLine } from '../store/marker.ts';
import { estimateTokens } from '../tokens/estimate.ts';
import { anchorToOriginal, elide, lossless, retrievable, type Candidate, type StashEntry } from './candidate.ts';

export interface StreamCandidate extends Candidate {
  /** What produced it, shown by `tokenless filter --json` and recorded as the content type: a filter's name
   * (`git-status`), `content:<operations>` for a content view, `generic`. */
  readonly filter: string;
  readonly stdout: string;
  readonly stderr: string;
}

/** One stream after filtering. `lossy` means something was dropped or summarised: `fromStreams` then stashes the
 * raw stream and ends its text with the retrieval line, so filters never build markers themselves. */
export interface FilteredStream {
  readonly text: string;
  readonly lossy: boolean;
}

/** A lossy stream as the model sees it: its view, then the line that prints the raw stream back. */
export function withRetrievalLine(text: string, key: string): string {
  const separator = text === '' || text.endsWith('\n') ? '' : '\n';
  return text + separator + retrievalLine(key);
}

/** Every key formats to a line of the same width and estimated cost, so "does it pay" needs no hash. */
const ANY_KEY = '0'.repeat(KEY_HEX_LENGTH);

/** Whether a filtered stream is worth showing instead of the original, measured on the text as it would be shown
 * (retrieval line included), not on a copied constant. `missedTokens`: what a filter knows its view costs beyond the
 * estimate (see the container filter's tabs). */
export function pays(original: string, filtered: FilteredStream, missedTokens = 0): boolean {
  if (filtered.text === original) return false;
  const shown = filtered.lossy ? withRetrievalLine(filtered.text, ANY_KEY) : filtered.text;
  return Buffer.byteLength(shown) < Buffer.byteLength(original) && estimateTokens(shown) + missedTokens < estimateTokens(original);
}

/** The candidate for per-stream views of `original`: each lossy stream is stashed whole and ends with its line. */
export function fromStreams(
  filter: string,
  original: { readonly stdout: string; readonly stderr: string },
  views: { readonly stdout: FilteredStream; readonly stderr: FilteredStream },
): StreamCandidate {
  const stash: StashEntry[] = [];
  const shown = (view: FilteredStream, raw: string): string => {
    if (!view.lossy) return view.text;
    const { entry } = elide(raw);
    stash.push(entry);
    return withRetrievalLine(view.text, entry.key);
  };
  const stdout = shown(views.stdout, original.stdout);
  const stderr = shown(views.stderr, original.stderr);
  const operations = [filter];
  const base = stash.length > 0 ? retrievable(stdout + stderr, operations, stash) : lossless(stdout + stderr, operations);
  return { ...base, filter, stdout, stderr };
}

/** A content compressor's candidate for stdout as a command candidate: its markers name the raw stdout (so any of
 * them retrieves exactly what the program printed) and stderr is shown as it is. */
export function onStdout(candidate: Candidate, original: { readonly stdout: string; readonly stderr: string }): StreamCandidate {
  const anchored = anchorToOriginal(candidate, original.stdout);
  return {
    ...anchored,
    output: anchored.output + original.stderr,
    filter: `content:${candidate.operations.join('+')}`,
    stdout: anchored.output,
    stderr: original.stderr,
  };
}
