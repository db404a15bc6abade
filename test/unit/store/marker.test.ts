import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MARKER_BYTES, MARKER_TOKENS, pays } from '../../../src/filters/text.ts';
import {
  markerFor,
  markerId,
  markersIn,
  parseMarker,
  RETRIEVAL_LINE_COST,
  retrievalLine,
  stashKeyFor,
} from '../../../src/store/marker.ts';
import { countTokens } from '../../../src/tokens/count.ts';
import { estimateTokens } from '../../../src/tokens/estimate.ts';

const keys = (n: number): string[] => Array.from({ length: n }, () => randomBytes(12).toString('hex'));

describe('markers', () => {
  it('names the same 96-bit key in 29 decimal digits and parses every form back to it', () => {
    const extremes = ['000000000000000000000000', 'ffffffffffffffffffffffff', '84d7a2cf1235da994ca0cc9f'];
    for (const key of [...extremes, ...keys(50)]) {
      const id = markerId(key);
      expect(id).toMatch(/^[0-9]{29}$/);
      expect(BigInt(id)).toBe(BigInt(`0x${key}`));
      for (const form of [markerFor(key), retrievalLine(key), ` ${id}\n`, key, `<<tokenless:${key}>>`]) expect(parseMarker(form)).toBe(key);
    }
    expect(markerId('ffffffffffffffffffffffff')).toBe('79228162514264337593543950335');
  });

  it('refuses what is not a marker, including ids beyond 96 bits', () => {
    for (const text of ['79228162514264337593543950336', '99999999999999999999999999999', '1234', '<<tokenless:12>>', '[tokenless retrieve 12]', 'tokenless retrieve', '']) {
      expect(parseMarker(text), text).toBeNull();
    }
    expect(markersIn('<<tokenless:99999999999999999999999999999>> and a 30-digit 123456789012345678901234567890')).toEqual([]);
  });

  it('finds old hex markers, new inline markers and retrieval lines alike (old views stay retrievable)', () => {
    const [a, b, c] = keys(3) as [string, string, string];
    const text = `old <<tokenless:${a}>>\n… 3 more items ${markerFor(b)}\n${retrievalLine(c)}again ${markerFor(a)}`;
    expect(markersIn(text)).toEqual([a, b, c]);
  });

  it('costs the same for every key: 51 bytes and 15 o200k tokens, against 73 bytes and 23-32 before', async () => {
    const old = (key: string): string => `[full stdout: tokenless retrieve <<tokenless:${key}>>]\n`;
    let oldTotal = 0;
    const sample = keys(40);
    for (const key of sample) {
      const line = retrievalLine(key);
      expect(Buffer.byteLength(line)).toBe(51);
      expect(await countTokens(line)).toBe(15);
      expect(estimateTokens(line)).toBe(RETRIEVAL_LINE_COST.tokens);
      oldTotal += await countTokens(old(key));
    }
    expect(oldTotal / sample.length).toBeGreaterThan(22);
    expect(RETRIEVAL_LINE_COST.bytes).toBe(51);
  });

  it('charges filters the real line cost (derived from the line, not a copy)', () => {
    expect(MARKER_BYTES).toBe(Buffer.byteLength(retrievalLine(stashKeyFor('x'))) + 1);
    expect(MARKER_TOKENS).toBe(estimateTokens(retrievalLine(stashKeyFor('x'))));
    // A lossy view that saves less than the line costs is not worth showing.
    const original = 'x'.repeat(60);
    expect(pays(original, { text: 'x'.repeat(60 - MARKER_BYTES), lossy: true })).toBe(false);
    expect(pays(original, { text: 'x'.repeat(60 - MARKER_BYTES), lossy: false })).toBe(true);
  });
});
