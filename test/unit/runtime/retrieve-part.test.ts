import { describe, expect, it } from 'vitest';
import { partRequest } from '../../../commands/shared/retrieve-part.ts';
import { parseLineRange, PART_LIMITS, selectPart, termsOf, type PartRequest } from '../../../src/runtime/retrieve-part.ts';
import { loadCorpusCase } from '../../helpers/fixtures.ts';

const CMD = 'tokenless retrieve 000';
const numbered = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join('');
const lines = (from: number, to: number | null): PartRequest => ({ kind: 'lines', range: { from, to } });

describe('retrieve --lines', () => {
  it('parses A, A-B and A- and refuses the rest', () => {
    expect(parseLineRange('120-180')).toEqual({ from: 120, to: 180 });
    expect(parseLineRange('7')).toEqual({ from: 7, to: 7 });
    expect(parseLineRange('7-')).toEqual({ from: 7, to: null });
    for (const bad of ['0', '0-3', '5-4', '-3', 'a-b', '1-2-3', '']) expect(parseLineRange(bad), bad).toBeNull();
  });

  it('prints the exact bytes of the range, CR and a missing last newline included', () => {
    const text = 'a\r\nb\nc';
    expect(selectPart(text, lines(2, 3), CMD)).toEqual({ text: 'b\nc', note: '[tokenless retrieve: lines 2-3 of 3, to the end]' });
    expect(selectPart(text, lines(1, 1), CMD).text).toBe('a\r\n');
    expect(selectPart(text, lines(1, 1), CMD).note).toContain(`more: ${CMD} --lines 2-`);
  });

  it('stops at the line limit and says where to go on', () => {
    const part = selectPart(numbered(1000), lines(100, null), CMD);
    expect(part.text.split('\n')).toHaveLength(PART_LIMITS.maxLines + 1);
    expect(part.text.startsWith('line 100\n')).toBe(true);
    expect(part.note).toBe(`[tokenless retrieve: lines 100-299 of 1000 (limit 200 lines / 16384 bytes); more: ${CMD} --lines 300-1000]`);
  });

  it('bounds one enormous line by bytes and says so', () => {
    const part = selectPart(`${'é'.repeat(20_000)}\nnext\n`, lines(1, 2), CMD);
    expect(Buffer.byteLength(part.text)).toBeLessThanOrEqual(PART_LIMITS.maxBytes + 1);
    expect(part.text).not.toContain('\uFFFD');
    expect(part.note).toMatch(/line 1 alone is over 16384 bytes/);
  });

  it('answers a range past the end with nothing and the length', () => {
    expect(selectPart(numbered(3), lines(9, null), CMD)).toEqual({ text: '', note: '[tokenless retrieve: the original has 3 lines; nothing from line 9]' });
  });
});

describe('retrieve --grep', () => {
  const grep = (source: string, context = 0, flags = 'u'): PartRequest => ({ kind: 'grep', pattern: new RegExp(source, flags), source, context, range: null });

  it('numbers matches and context like grep -n and separates groups with --', () => {
    const part = selectPart(numbered(30), grep('^line (5|20)$', 1), CMD);
    expect(part.text).toBe('4-line 4\n5:line 5\n6-line 6\n--\n19-line 19\n20:line 20\n21-line 21\n');
    expect(part.note).toBe('[tokenless retrieve: 2 lines of 30 lines match /^line (5|20)$/; all shown]');
  });

  it('finds a failing test among a real run and keeps going past the limit with --lines', () => {
    // Two runners of two projects: the failure lines come back numbered, with their context.
    const vitest = loadCorpusCase('test-vitest-run-fail-path-to-regexp').stderr;
    expect(selectPart(vitest, grep('FAIL|AssertionError', 2), CMD).text).toMatch(/^4:.*FAIL {2}src\/index\.spec\.ts[\s\S]*^5:AssertionError/m);
    const pytest = loadCorpusCase('test-pytest-fail-more-itertools').stdout;
    const part = selectPart(pytest, grep('^FAILED', 0), CMD);
    expect(part.text).toMatch(/^40:FAILED tests\/test_recipes\.py::PowersetTests::test_combinatorics/m);
    expect(part.text.split('\n').every((line) => line === '' || /^\d+:FAILED /.test(line))).toBe(true);
    const many = selectPart(numbered(1000), grep('line'), CMD);
    expect(many.note).toBe(`[tokenless retrieve: 1000 lines of 1000 lines match /line/; shown 200 (limit 200 lines); more: ${CMD} --grep line --lines 201-]`);
  });

  it('says when nothing matches', () => {
    expect(selectPart(numbered(3), grep('nope'), CMD)).toEqual({ text: '', note: '[tokenless retrieve: no line of 3 lines matches /nope/]' });
  });
});

describe('retrieve --search', () => {
  it('splits identifiers into words', () => {
    expect(termsOf('statusCode out_of range')).toEqual(['statuscode', 'status', 'code', 'out_of', 'out', 'of', 'range']);
  });

  it('ranks the section with the rare words first and heads each with its lines', () => {
    const filler = Array.from({ length: 12 }, (_, i) => `ok test number ${i} passed\nok another check\nok more\n\n`).join('');
    const failure = 'FAIL status code out of range\nexpected 600 to be below 599\nat test/all.test.mjs:42\n\n';
    const text = `${filler}${failure}${filler}`;
    const part = selectPart(text, { kind: 'search', query: 'status code range', top: 1, range: null }, CMD);
    expect(part.text.split('\n')[0]).toMatch(/^── lines \d+-\d+ ──$/);
    expect(part.text).toContain('FAIL status code out of range');
    expect(part.text).not.toContain('ok test number');
    expect(part.note).toBe('[tokenless retrieve: 1 of 1 matching section (of 100 lines), best first]');
  });

  it('offers more sections when there are', () => {
    const text = Array.from({ length: 10 }, (_, i) => `error in module ${i}\ndetail\ndetail\n\n`).join('');
    const part = selectPart(text, { kind: 'search', query: 'error module', top: 3, range: null }, CMD);
    expect(part.text.match(/^── lines/gm)).toHaveLength(3);
    expect(part.note).toBe(`[tokenless retrieve: 3 of 10 matching sections (of 40 lines), best first; more: ${CMD} --search 'error module' --top 6, or --lines A-B]`);
  });
});

describe('retrieve part options', () => {
  it('builds the request from the options, or null for the whole original', () => {
    expect(partRequest({})).toBeNull();
    expect(partRequest({ lines: '3-4' })).toEqual({ kind: 'lines', range: { from: 3, to: 4 } });
    expect(partRequest({ grep: 'a+', context: '3', ignoreCase: true })).toMatchObject({ kind: 'grep', context: 3, source: 'a+' });
    expect(partRequest({ search: 'x y', top: '5', lines: '10-' })).toEqual({ kind: 'search', query: 'x y', top: 5, range: { from: 10, to: null } });
  });

  it('refuses malformed or contradictory options as usage errors (exit 2)', () => {
    for (const options of [{ lines: '5-1' }, { grep: '(' }, { grep: 'a', search: 'b' }, { context: '2' }, { grep: 'a', context: '99' }, { top: '2' }, { search: '  ' }, { search: 'a', top: '0' }]) {
      expect(() => partRequest(options), JSON.stringify(options)).toThrow(expect.objectContaining({ exitCode: 2 }));
    }
  });
});
