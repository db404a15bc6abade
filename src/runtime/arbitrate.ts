import { estimateTokens } from '../tokens/estimate.ts';
import type { Candidate } from './candidate.ts';

export interface Adopted {
  readonly candidate: Candidate;
  readonly beforeTokens: number;
  readonly afterTokens: number;
}

/**
 * Picks the candidate to show: it must be strictly shorter than the original in bytes and in estimated tokens;
 * among those the fewest tokens win, then the fewest bytes, then lossless over retrievable.
 */
export function arbitrate(original: string, candidates: readonly Candidate[]): Adopted | null {
  const beforeBytes = Buffer.byteLength(original);
  const beforeTokens = estimateTokens(original);
  let best: { candidate: Candidate; tokens: number; bytes: number } | null = null;
  for (const candidate of candidates) {
    const bytes = Buffer.byteLength(candidate.output);
    if (bytes >= beforeBytes) continue;
    const tokens = estimateTokens(candidate.output);
    if (tokens >= beforeTokens) continue;
    if (best === null || isBetter({ candidate, tokens, bytes }, best)) best = { candidate, tokens, bytes };
  }
  return best === null ? null : { candidate: best.candidate, beforeTokens, afterTokens: best.tokens };
}

function isBetter(a: { candidate: Candidate; tokens: number; bytes: number }, b: typeof a): boolean {
  if (a.tokens !== b.tokens) return a.tokens < b.tokens;
  if (a.bytes !== b.bytes) return a.bytes < b.bytes;
  return a.candidate.recoverability === 'lossless' && b.candidate.recoverability !== 'lossless';
}
