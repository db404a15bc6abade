/**
 * Fast token estimate for the hot path (no tokenizer tables). It approximates BPE tokenizers such as o200k by
 * counting word pieces: letter runs cost one token per ~6 characters, digit runs one per 3 digits, runs of one
 * repeated symbol (`=====`, `.....`) one per 8, other symbols one each, and whitespace runs only beyond the single
 * space a word piece absorbs. Figures computed with it are labelled "estimated"; reports use `count()`.
 */
const PIECES = /[\p{L}\p{M}]+|\p{N}+|([^\s\p{L}\p{M}\p{N}])\1*|\s+/gu;
const SPACE = /\s/u;
const DIGIT = /\p{N}/u;
const LETTER = /[\p{L}\p{M}]/u;

export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const match of text.matchAll(PIECES)) {
    const piece = match[0];
    const first = String.fromCodePoint(piece.codePointAt(0) ?? 0);
    if (SPACE.test(first)) {
      // A single space or newline usually merges into the next token; longer runs are tokens of their own.
      if (piece.length > 1) tokens += Math.ceil(piece.length / 8);
    } else if (DIGIT.test(first)) {
      tokens += Math.ceil(piece.length / 3);
    } else if (LETTER.test(first)) {
      // Non-Latin scripts tokenize far more densely than English words.
      tokens += first.codePointAt(0)! > 0x2fff ? piece.length : Math.ceil(piece.length / 6);
    } else {
      tokens += Math.ceil(piece.length / 8);
    }
  }
  return tokens;
}

/** Which method produced a token figure, stated next to every figure we print. */
export type TokenMethod = 'estimated' | 'o200k';
