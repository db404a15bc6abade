import { encode } from '@toon-format/toon';
import { exactOrStashed } from './inverse.ts';
import { compactText, isFaithful, parseJsonCached, type ParsedJson } from './json-scan.ts';
import { trailingWhitespace } from './view.ts';
import type { Compressor } from './types.ts';

/**
 * TOON rendering of a JSON value, or null unless `structuralTokens` says it is strictly cheaper than `baseline`.
 * On real payloads TOON usually loses to compact JSON in o200k (MEASUREMENTS.md), yet `estimateTokens` charges
 * one token per punctuation character and so favours TOON on every corpus JSON case (by 7-26%) while o200k
 * disfavours it (by 0-15%). The runtime still requires the `estimateTokens` win; this gate keeps the o200k
 * losses out, and is a linear char-code loop so it costs little on 1 MiB.
 */
export function toonIfSmaller(value: unknown, baseline: string): string | null {
  let toon: string;
  try {
    toon = encode(value);
  } catch {
    return null;
  }
  return structuralTokens(toon) < structuralTokens(baseline) ? toon : null;
}

const WHITESPACE = 0;
const DIGIT = 1;
const LETTER = 2;
const PUNCT = 3;
/** Characters per token for a run of each class; whitespace runs of one character are free. */
const PER_TOKEN: readonly number[] = [8, 3, 4, 3];

function charClass(code: number): number {
  if (code === 32 || code === 10 || code === 9 || code === 13) return WHITESPACE;
  if (code >= 48 && code <= 57) return DIGIT;
  if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code >= 128) return LETTER;
  return PUNCT;
}

/**
 * A token proxy for comparing two spellings of the same data: BPE vocabularies merge JSON punctuation runs such
 * as `":"` or `"},{"` into one token, so a punctuation run costs one token per 3 characters, a letter run one per
 * 4, a digit run one per 3. Calibrated against o200k on the corpus JSON cases (the TOON/compact direction agreed
 * on all 9 real payloads and 3 synthetic ones); used only for this comparison, never reported.
 */
export function structuralTokens(text: string): number {
  let tokens = 0;
  let runClass = -1;
  let runLength = 0;
  const flush = (): void => {
    if (runClass < 0 || (runClass === WHITESPACE && runLength < 2)) return;
    tokens += Math.ceil(runLength / (PER_TOKEN[runClass] ?? 3));
  };
  for (let i = 0; i < text.length; i++) {
    const cls = charClass(text.charCodeAt(i));
    if (cls === runClass) {
      runLength++;
    } else {
      flush();
      runClass = cls;
      runLength = 1;
    }
  }
  flush();
  return tokens;
}

/** Largest document the full-document TOON candidate is tried on (the truncated form is still tried as TOON). */
export const TOON_FULL_DOCUMENT_MAX_CHARS = 256 * 1024;

/** The value TOON encodes: one document as is, JSON Lines as the array of their records. */
export function toonValue(parsed: ParsedJson): unknown {
  return parsed.kind === 'document' ? parsed.value : parsed.values;
}

/**
 * Operation `toon`: decode(encode(v)) equals v, so the model sees the same data. Only for faithful documents
 * (JSON.parse would otherwise round big integers or drop duplicate keys before TOON sees them). Lossless only when
 * its inverse (`decode`, `JSON.stringify`, then jq's layout) gives back the original bytes; otherwise retrievable.
 */
export const toonJson: Compressor = (input) => {
  // Past this size the recoverable truncation always wins by far, and encoding TOON alone would cost ~100 ms/MiB.
  if (input.content.length > TOON_FULL_DOCUMENT_MAX_CHARS) return null;
  const parsed = parseJsonCached(input.content);
  if (parsed === null || !isFaithful(parsed)) return null;
  const toon = toonIfSmaller(toonValue(parsed), compactText(parsed));
  if (toon === null) return null;
  return exactOrStashed(input.content, toon + trailingWhitespace(input.content), ['toon'], 'JSON shown as TOON');
};

/** The figures `toonJson` decides by, exposed for measurement: structural tokens of TOON and compact JSON. */
export function toonComparison(content: string): { toon: number; compact: number } | null {
  const parsed = parseJsonCached(content);
  if (parsed === null || !isFaithful(parsed)) return null;
  let toon: string;
  try {
    toon = encode(toonValue(parsed));
  } catch {
    return null;
  }
  return { toon: structuralTokens(toon), compact: structuralTokens(compactText(parsed)) };
}
