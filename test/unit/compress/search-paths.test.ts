import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeSearchPaths,
  encodeSearchPaths,
  SEARCH_PATH_HEADER,
  searchPathSharing,
  searchPathSharingEnabled,
  searchPathTokenSavings,
} from '../../../src/compress/search-paths.ts';
import type { CompressInput } from '../../../src/compress/types.ts';
import { estimateTokens } from '../../../src/tokens/estimate.ts';
import { loadCorpus } from '../../helpers/fixtures.ts';

const input = (content: string): CompressInput => ({ content, origin: 'api_response', toolName: 'search', contentType: 'search_results' });

// Paths: any text without `:` or a line break; `-` is left out so no path is another's `path-12-` context form.
const pathChar = fc.oneof(
  fc.constantFrom('a', 'b', 'src', '/', '.', ' ', '_', 'é', '文', '😀', '"', '\\', 'x y'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 3 }).filter((s) => !/[:\n\r-]/.test(s)),
);
const path = fc.array(pathChar, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(''));
const text = fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\n'));
const lineNumber = fc.stringMatching(/^\d{1,6}$/);
const ending = fc.constantFrom('\n', '\r\n');

/** A valid listing: records drawn from a small path pool, so paths repeat consecutively and non-consecutively. */
const listing = fc
  .tuple(fc.array(path, { minLength: 1, maxLength: 4 }), fc.array(fc.tuple(fc.nat(), lineNumber, text, ending), { minLength: 3, maxLength: 30 }), fc.boolean())
  .map(([paths, records, finalNewline]) => {
    const lines = records.map(([p, n, t, end]) => `${paths[p % paths.length] ?? 'x'}:${n}:${t}${end}`);
    const joined = lines.join('');
    return finalNewline ? joined : joined.replace(/\r?\n$/, '');
  });

/** Inserts a line at a random position of a listing. */
const withLine = (bad: fc.Arbitrary<string>) =>
  fc.tuple(listing, bad, fc.nat()).map(([valid, line, at]) => {
    const lines = valid.split(/(?<=\n)/);
    const end = lines[0]?.endsWith('\r\n') ? '\r\n' : '\n';
    const index = at % (lines.length + 1);
    if (index === lines.length && !valid.endsWith('\n')) return `${valid}${end}${line}${end}`;
    lines.splice(index, 0, line + end);
    return lines.join('');
  });

describe('encodeSearchPaths', () => {
  it('decodes back to the exact listing (unicode, spaces, CRLF, no final newline, repeated paths)', () => {
    fc.assert(
      fc.property(listing, (original) => {
        const encoded = encodeSearchPaths(original);
        expect(encoded).not.toBeNull();
        expect(decodeSearchPaths(encoded ?? '')).toBe(original);
        expect(encoded?.split('\n')[0]).toBe(SEARCH_PATH_HEADER);
      }),
      { numRuns: 400 },
    );
  });

  it('computes the token saving exactly as a full re-count would', () => {
    fc.assert(
      fc.property(listing, (original) => {
        const encoded = encodeSearchPaths(original) ?? '';
        expect(searchPathTokenSavings(original)).toBe(estimateTokens(original) - estimateTokens(encoded));
      }),
      { numRuns: 300 },
    );
  });

  it('rejects the whole listing for a context line `path-12-text`', () => {
    const context = fc.tuple(lineNumber, text).map(([n, t]) => ({ n, t }));
    fc.assert(
      fc.property(listing, context, fc.nat(), (valid, { n, t }, at) => {
        const lines = valid.split(/(?<=\n)/);
        const recordPath = (lines[at % lines.length] ?? '').split(':')[0] ?? '';
        const end = valid.includes('\r\n') ? '\r\n' : '\n';
        const withContext = `${recordPath}-${n}-${t}${end}${valid}`;
        expect(encodeSearchPaths(withContext)).toBeNull();
      }),
    );
  });

  it.each([
    ['a `--` separator', fc.constant('--')],
    ['a Windows path', fc.tuple(fc.constantFrom('C', 'd', 'Z'), fc.constantFrom('\\', '/'), lineNumber, text).map(([d, s, n, t]) => `${d}:${s}src${s}a.c:${n}:${t}`)],
    ['a colon in the path', fc.tuple(path, fc.constantFrom('a', 'x/', ' ', '_'), path, lineNumber, text).map(([a, c, b, n, t]) => `${a}:${c}${b}:${n}:${t}`)],
    ['an empty line', fc.constant('')],
    ['a count line `path:12`', fc.tuple(path, lineNumber).map(([p, n]) => `${p}:${n}`)],
    ['a line without a line number', fc.tuple(path, text).map(([p, t]) => `${p}::${t}`)],
  ])('rejects the whole listing for %s', (_name, bad) => {
    fc.assert(fc.property(withLine(bad), (listingWithBadLine) => {
      expect(encodeSearchPaths(listingWithBadLine)).toBeNull();
    }));
  });

  it('needs at least three records', () => {
    expect(encodeSearchPaths('a.ts:1:x\na.ts:2:y\n')).toBeNull();
    expect(encodeSearchPaths('a.ts:1:x\na.ts:2:y\na.ts:3:z')).not.toBeNull();
  });

  it('writes one File= line per run of consecutive records with the same path', () => {
    const encoded = encodeSearchPaths('a.ts:1:x\r\na.ts:2:y\r\nb.ts:3:z\r\na.ts:4:w');
    expect(encoded).toBe(`${SEARCH_PATH_HEADER}\nFile="a.ts"\n1:x\r\n2:y\r\nFile="b.ts"\n3:z\r\nFile="a.ts"\n4:w`);
  });
});

describe('searchPathSharing', () => {
  it('round-trips every search listing of the corpus and is adopted only when shorter in bytes and tokens', () => {
    let encodedCases = 0;
    for (const corpusCase of loadCorpus().filter((c) => c.category === 'search')) {
      const encoded = encodeSearchPaths(corpusCase.stdout);
      if (encoded === null) continue;
      encodedCases++;
      expect(decodeSearchPaths(encoded)).toBe(corpusCase.stdout);
      expect(searchPathTokenSavings(corpusCase.stdout)).toBe(estimateTokens(corpusCase.stdout) - estimateTokens(encoded));
      const candidate = searchPathSharing(input(corpusCase.stdout), { searchPathSharing: true });
      if (candidate !== null) {
        expect(candidate.recoverability).toBe('lossless');
        expect(candidate.operations).toEqual(['search_path_sharing']);
        expect(Buffer.byteLength(candidate.output)).toBeLessThan(corpusCase.stdoutBytes.length);
        expect(estimateTokens(candidate.output)).toBeLessThan(estimateTokens(corpusCase.stdout));
      }
    }
    expect(encodedCases).toBeGreaterThanOrEqual(10);
  });

  it('is off when the option is off, and drops listings it would not shorten', () => {
    const listingText = 'src/a.ts:1:x\nsrc/a.ts:2:y\nsrc/a.ts:3:z\n';
    expect(searchPathSharing(input(listingText), { searchPathSharing: false })).toBeNull();
    expect(searchPathSharing(input(listingText), { searchPathSharing: true })).toBeNull();
    const long = Array.from({ length: 10 }, (_, i) => `src/components/button.tsx:${i + 1}:const x = ${i};\n`).join('');
    expect(searchPathSharing(input(long), { searchPathSharing: true })?.output).toContain('File="src/components/button.tsx"');
  });
});

describe('searchPathSharingEnabled', () => {
  it.each([
    [undefined, true],
    ['1', true],
    ['true', true],
    ['TRUE', true],
    ['Yes', true],
    ['yes', true],
    ['', false],
    ['0', false],
    ['false', false],
    ['no', false],
    ['on', false],
    [' 1', false],
  ])('TOKENLESS_SEARCH_PATH_SHARING_ENABLED=%j -> %s', (value, expected) => {
    expect(searchPathSharingEnabled({ TOKENLESS_SEARCH_PATH_SHARING_ENABLED: value })).toBe(expected);
  });
});
