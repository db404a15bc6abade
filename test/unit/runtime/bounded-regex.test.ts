/** Issue 30, item 15: a user's regular expression runs under a time bound and is refused, with the limit named, past it. */
import { describe, expect, it } from 'vitest';
import { compileUserRegex, matchLines, MAX_PATTERN_CHARS } from '../../../src/runtime/bounded-regex.ts';

describe('compileUserRegex', () => {
  it('compiles a Unicode pattern, case-folded on request', () => {
    const compiled = compileUserRegex('^fail', true);
    expect(compiled.ok && compiled.regex.flags).toBe('iu');
  });

  it('refuses an empty, over-long or malformed pattern', () => {
    expect(compileUserRegex('', false)).toEqual({ ok: false, reason: `takes a regular expression of 1 to ${MAX_PATTERN_CHARS} characters` });
    expect(compileUserRegex('a'.repeat(MAX_PATTERN_CHARS + 1), false).ok).toBe(false);
    const malformed = compileUserRegex('(', false);
    expect(!malformed.ok && malformed.reason).toMatch(/Unterminated group/);
  });
});

describe('matchLines', () => {
  it('gives the indexes of the matching lines', () => {
    expect(matchLines(/^b|c$/u, ['a', 'b', 'abc', 'x'])).toEqual({ ok: true, lines: [1, 2] });
    // A stateful regex does not carry lastIndex from one line to the next.
    expect(matchLines(/a/gu, ['a', 'a', 'a'])).toEqual({ ok: true, lines: [0, 1, 2] });
  });

  it('stops a catastrophically backtracking pattern at the deadline and names the limit', () => {
    const started = Date.now();
    const result = matchLines(/^(a|a)*$/u, [`${'a'.repeat(40)}b`], 200);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(!result.ok && result.reason).toContain('/^(a|a)*$/ did not finish within the 0.2 s limit');
  });
});
