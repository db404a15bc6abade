import { estimateTokens } from '../tokens/estimate.ts';
import type { Candidate } from '../reduce/candidate.ts';

export interface Adopted<C extends Candidate = Candidate> {
  readonly candidate: C;
  readonly beforeTokens: number;
  readonly afterTokens: number;
}

/**
 * A lossy view must save clearly, not just by the estimator's error: the estimate is within about 20% of o200k on
 * real output, and a view that barely wins costs the agent a retrieval round trip. 10% and 8 tokens at least.
 */
const LOSSY_MIN_SHARE = 0.1;
const LOSSY_MIN_TOKENS = 8;

/**
 * Picks the candidate to show: it must be strictly shorter than the original in bytes and in estimated tokens
 * (lossy ones by the margin above); among those the fewest tokens win, then the fewest bytes, then lossless over
 * retrievable.
 */
export function arbitrate<C extends Candidate>(original: string, candidates: readonly C[]): Adopted<C> | null {
  const beforeBytes = Buffer.byteLength(original);
  const beforeTokens = estimateTokens(original);
  let best: { candidate: C; tokens: number; bytes: number } | null = null;
  for (const candidate of candidates) {
    const bytes = Buffer.byteLength(candidate.output);
    if (bytes >= beforeBytes) continue;
    const tokens = estimateTokens(candidate.output);
    if (tokens >= beforeTokens) continue;
    const saved = beforeTokens - tokens;
    if (candidate.recoverability !== 'lossless' && (saved < LOSSY_MIN_TOKENS || saved < beforeTokens * LOSSY_MIN_SHARE)) continue;
    if (best === null || isBetter({ candidate, tokens, bytes }, best)) best = { candidate, tokens, bytes };
  }
  return best === null ? null : { candidate: best.candidate, beforeTokens, afterTokens: best.tokens };
}

function isBetter(a: { candidate: Candidate; tokens: number; bytes: number }, b: typeof a): boolean {
  if (a.tokens !== b.tokens) return a.tokens < b.tokens;
  if (a.bytes !== b.bytes) return a.bytes < b.bytes;
  return a.candidate.recoverability === 'lossless' && b.candidate.recoverability !== 'lossless';
}
