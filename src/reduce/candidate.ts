import { markerFor, stashKeyFor, toBytes } from '../store/marker.ts';
import type { StashEntry } from '../store/stash.ts';

export type { StashEntry };

/** How much of the original a candidate keeps: lossless needs no stash; retrievable has every elision stashed. */
export type Recoverability = 'lossless' | 'retrievable' | 'unrecoverable';

/**
 * What a filter or compressor proposes. Pure data: nothing is written until the runtime adopts it,
 * so a discarded candidate leaves nothing in the stash.
 */
export interface Candidate {
  /** The text the model would see instead of the original. */
  readonly output: string;
  /** Names of the operations applied, e.g. `search_path_sharing`, `git_status`, `json_compact`. */
  readonly operations: readonly string[];
  readonly recoverability: Recoverability;
  /** Originals referenced by markers in `output`; empty for lossless candidates. */
  readonly stash: readonly StashEntry[];
}

/** Builds the stash entry and the marker text for an elided original. */
export function elide(original: string | Uint8Array): { entry: StashEntry; marker: string } {
  const bytes = toBytes(original);
  const key = stashKeyFor(bytes);
  return { entry: { key, bytes }, marker: markerFor(key) };
}

export function lossless(output: string, operations: readonly string[]): Candidate {
  return { output, operations, recoverability: 'lossless', stash: [] };
}

export function retrievable(output: string, operations: readonly string[], stash: readonly StashEntry[]): Candidate {
  return { output, operations, recoverability: 'retrievable', stash };
}

/**
 * Points every marker of a retrievable candidate at one stash entry holding the whole original, byte for byte.
 * Compressors may elide pieces re-serialised from parsed data (a JSON array's middle); after this, whichever
 * marker the agent retrieves returns exactly what the tool printed, never a re-encoding of it.
 */
export function anchorToOriginal(candidate: Candidate, original: string | Uint8Array): Candidate {
  if (candidate.recoverability !== 'retrievable' || candidate.stash.length === 0) return candidate;
  const whole = elide(original);
  let output = candidate.output;
  for (const entry of candidate.stash) output = output.replaceAll(markerFor(entry.key), whole.marker);
  return { ...candidate, output, stash: [whole.entry] };
}
