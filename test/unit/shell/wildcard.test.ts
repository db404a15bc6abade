/** Permission-rule wildcards without a backtracking regex (issue 30, bounded regexes: rules come from repo files). */
import { describe, expect, it } from 'vitest';
import { strictMatch } from '../../../src/harness/claude-code/permissions.ts';
import { wildcardMatch } from '../../../src/shell/wildcard.ts';

describe('wildcardMatch', () => {
  it.each([
    ['git *', 'git status', true],
    ['git *', 'git', false],
    ['*', '', true],
    ['a*b*c', 'aXbYc', true],
    ['a*b*c', 'aXbY', false],
    ['git * --stat', 'git diff HEAD --stat', true],
    ['git * --stat', 'git diff --stat x', false],
    ['x*', 'x\nmultiline', true],
    ['**a', 'ba', true],
    ['a.b', 'aXb', false],
    ['(a|a)*', '(a|a)zz', true],
  ])('%j against %j is %s', (pattern, text, expected) => {
    expect(wildcardMatch(pattern, text)).toBe(expected);
  });

  it('stays fast on a rule that a backtracking regex takes exponential time on', () => {
    const started = Date.now();
    expect(wildcardMatch(`${'a*'.repeat(12)}b`, 'a'.repeat(5000))).toBe(false);
    expect(strictMatch(`Bash(${'a*'.repeat(12)}b)`, 'a'.repeat(5000))).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
