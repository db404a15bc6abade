import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactJson, JSON_LIMITS, truncateJson } from '../../../src/compress/json.ts';
import { parseJsonContent, scanJson } from '../../../src/compress/json-scan.ts';
import type { CompressInput } from '../../../src/compress/types.ts';
import { invertView } from '../../../src/compress/inverse.ts';
import { markersMatchStash, reconstructJsonDocument, reconstructJsonLines, wholeOriginal } from './reconstruct.ts';

const input = (content: string): CompressInput => ({ content, origin: 'command_output', toolName: 'Bash', contentType: 'json' });
const options = { searchPathSharing: true };

/** JSON text of a value, pretty-printed with a random indent (0 means compact). */
const spelled = (value: unknown, indent: number): string => JSON.stringify(value, null, indent);

describe('scanJson', () => {
  it('minifies to exactly what JSON.stringify prints for faithful documents', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat({ max: 4 }), (value, indent) => {
        const text = spelled(value, indent);
        const scan = scanJson(text);
        expect(scan.minified).toBe(JSON.stringify(JSON.parse(text)));
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['{"a": 1.0}', false],
    ['[1e5]', false],
    ['[-0]', false],
    ['[9007199254740993]', false],
    ['[9007199254740994]', true],
    ['[0.1, -2.5e-7, 123]', true],
    ['{"a": 1, "a": 2}', false],
    ['{"x": {"a": 1, "b": {"c": 1}, "a": 2}}', false],
    ['{"\\u0061": 1, "a": 2}', false],
    ['[{"a": 1}, {"a": 2}]', true],
    ['{"a": {"a": {"a": 1}}}', true],
    ['{"s": "1.0 is \\"quoted\\" \\\\", "t": "\\u00e9"}', true],
  ])('%s is faithful: %s', (text, faithful) => {
    expect(scanJson(text).faithful).toBe(faithful);
  });

  it('keeps every token byte-identical when minifying', () => {
    expect(scanJson('{ "a" : 1.0 ,\n "b":[ 1e5 , "x y\\n" ], "a": 2 }').minified).toBe('{"a":1.0,"b":[1e5,"x y\\n"],"a":2}');
  });
});

describe('parseJsonContent', () => {
  it('reads JSON Lines and pretty-printed value streams (jq) as records', () => {
    const lines = parseJsonContent('{"a":1}\n{"a":2}\r\n\n[3]\n');
    expect(lines?.kind).toBe('lines');
    const stream = parseJsonContent('{\n  "a": 1\n}\n{\n  "a": 2\n}\n');
    expect(stream?.kind === 'lines' ? stream.values : null).toEqual([{ a: 1 }, { a: 2 }]);
    expect(parseJsonContent('{"a":1}\nnot json\n')).toBeNull();
    expect(parseJsonContent('hello')).toBeNull();
  });
});

describe('compactJson', () => {
  it('is lossless exactly when the original has jq\'s layout; otherwise retrievable; the same value either way', () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(fc.jsonValue()), fc.dictionary(fc.string(), fc.jsonValue())), fc.integer({ min: 1, max: 4 }), fc.boolean(), (value, indent, newline) => {
        const text = spelled(value, indent) + (newline ? '\n' : '');
        const candidate = compactJson(input(text), options);
        if (candidate === null) return;
        const compact = candidate.output.split('\n[tokenless:')[0] ?? '';
        expect(JSON.parse(compact)).toEqual(JSON.parse(text));
        if (candidate.recoverability === 'lossless') expect(invertView(candidate.output, candidate.operations)).toBe(text);
        else expect(wholeOriginal(candidate)).toBe(text);
        // Two-space indentation is jq's and JSON.stringify's layout: its compaction can be undone byte for byte.
        if (indent === 2) expect(candidate.recoverability).toBe('lossless');
      }),
      { numRuns: 200 },
    );
    expect(compactJson(input('{\n  "v": 1.0,\n  "v": 2\n}'), options)?.output).toBe('{"v":1.0,"v":2}');
  });

  it('keeps JSON Lines one record per line; a layout its inverse cannot rebuild is stashed', () => {
    const candidate = compactJson(input('{ "a": 1 }\n{ "a": 2 }\n'), options);
    expect(candidate?.output.startsWith('{"a":1}\n{"a":2}\n[tokenless: JSON whitespace removed; full output <<tokenless:')).toBe(true);
    expect(candidate?.recoverability).toBe('retrievable');
  });

  it('keeps the final newline, so `jq . f && echo NEXT` does not glue NEXT onto the JSON', () => {
    const text = `${JSON.stringify({ name: 'x', list: [1, 2, 3] }, null, 2)}\n`;
    const candidate = compactJson(input(text), options);
    expect(candidate?.output).toBe('{"name":"x","list":[1,2,3]}\n');
    expect(candidate?.recoverability).toBe('lossless');
    expect(`${candidate?.output ?? ''}NEXT\n`.split('\n')).toEqual(['{"name":"x","list":[1,2,3]}', 'NEXT', '']);
  });
});

// Values big enough to be reduced: long strings, long arrays and deep nesting, next to small random JSON.
const deep = (depth: number, leaf: unknown): unknown => (depth === 0 ? leaf : { level: deep(depth - 1, leaf) });
const bigDocument = fc.record({
  long: fc.string({ unit: 'grapheme', minLength: 0, maxLength: 900 }),
  items: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 60 }),
  nested: fc.tuple(fc.nat({ max: 16 }), fc.jsonValue({ maxDepth: 2 })).map(([d, leaf]) => deep(d, leaf)),
  pad: fc.array(fc.string({ unit: 'binary', minLength: 150, maxLength: 300 }), { minLength: 25, maxLength: 40 }),
  small: fc.jsonValue({ maxDepth: 3 }),
});

describe('truncateJson', () => {
  it('stashes every elision so that substituting the stash back gives the original value exactly', () => {
    let reduced = 0;
    fc.assert(
      fc.property(bigDocument, fc.nat({ max: 3 }), (value, indent) => {
        const text = spelled(value, indent);
        const candidate = truncateJson(input(text), options);
        if (candidate === null) return;
        reduced++;
        expect(candidate.recoverability).toBe('retrievable');
        expect(markersMatchStash(candidate)).toBe(true);
        // Byte-exact against the compact original: the form json_compact shows losslessly.
        expect(JSON.stringify(reconstructJsonDocument(candidate))).toBe(scanJson(text).minified);
      }),
      { numRuns: 150 },
    );
    expect(reduced).toBeGreaterThan(100);
  });

  it('reduces long JSON Lines to head and tail records around a marker line', () => {
    const records = Array.from({ length: 100 }, (_, i) => ({ i, msg: 'x'.repeat(i % 7 === 0 ? 600 : 20) }));
    const text = `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
    const candidate = truncateJson(input(text), options);
    expect(candidate).not.toBeNull();
    expect(candidate?.output.split('\n').filter((l) => l !== '').length).toBe(JSON_LIMITS.linesHead + 1 + JSON_LIMITS.linesTail);
    expect(reconstructJsonLines(candidate ?? { output: '', operations: [], recoverability: 'lossless', stash: [] })).toEqual(records);
  });

  it('leaves small and unfaithful documents alone', () => {
    expect(truncateJson(input(JSON.stringify({ a: 'x'.repeat(1000) })), options)).toBeNull();
    expect(truncateJson(input(`{"n": 1.0, "a": ${JSON.stringify(Array.from({ length: 999 }, (_, i) => i))}}`), options)).toBeNull();
  });
});
