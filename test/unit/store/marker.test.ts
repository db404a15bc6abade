import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeView } from '../../../src/filters/text.ts';
import { pays, withRetrievalLine } from '../../../src/reduce/stream.ts';
import {
  markerFor,
  markerId,
  markersIn,
  parseMarker,
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
    const estimated = new Set<number>();
    for (const key of sample) {
      const line = retrievalLine(key);
      expect(Buffer.byteLength(line)).toBe(51);
      expect(await countTokens(line)).toBe(15);
      estimated.add(estimateTokens(line));
      oldTotal += await countTokens(old(key));
    }
    // The same estimate for every key: "does it pay" is decided before anything is hashed.
    expect(estimated.size).toBe(1);
    expect(oldTotal / sample.length).toBeGreaterThan(22);
  });

  it('charges a lossy view what the model will see: its text with the real retrieval line', () => {
    const line = retrievalLine(stashKeyFor('x'));
    const cost = Buffer.byteLength(line);
    // Dense in tokens (one per digit), so the byte count alone decides.
    const original = `${Array.from({ length: 60 }, (_, i) => String(i % 10)).join(' ')}\n`;
    const body = (bytes: number): string => `${'w'.repeat(bytes - 1)}\n`;
    // One byte short of the original once the line is added: pays; exactly as long: does not.
    expect(pays(original, { text: body(Buffer.byteLength(original) - cost - 1), lossy: true })).toBe(true);
    expect(pays(original, { text: body(Buffer.byteLength(original) - cost), lossy: true })).toBe(false);
    expect(pays(original, { text: body(Buffer.byteLength(original) - cost), lossy: false })).toBe(true);
    // A view without a final newline is charged the newline that separates it from the line.
    expect(withRetrievalLine('a', stashKeyFor('x'))).toBe(`a\n${line}`);
    // The candidate a filter proposes shows exactly that text and stashes the raw stream under the line's key.
    const output = { argv: ['x'], stdout: original, stderr: '', exitCode: 0 };
    const candidate = makeView('x', output, { text: 'summary\n', lossy: true }, null);
    expect(candidate?.stdout).toBe(`summary\n${retrievalLine(stashKeyFor(original))}`);
    expect(candidate?.stash.map((entry) => entry.key)).toEqual([stashKeyFor(original)]);
    expect(candidate?.output).toBe(candidate?.stdout);
  });
});
