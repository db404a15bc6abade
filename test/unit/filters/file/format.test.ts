import { describe, expect, it } from 'vitest';
import { compilePattern, nestedRepeat, withinBudget, BudgetExceeded } from '../../../../src/filters/file/budget.ts';
import { globWord, matchesCommand, parseCommandPattern } from '../../../../src/filters/file/command-pattern.ts';
import { parseFilterFile } from '../../../../src/filters/file/parse.ts';
import { applyStages, compileStages } from '../../../../src/filters/file/stages.ts';
import type { Stages } from '../../../../src/filters/file/schema.ts';

const matches = (pattern: string, line: string): boolean => matchesCommand(parseCommandPattern(pattern), line.split(' '));
const stages = (spec: Stages) => {
  const { stages: compiled, problems } = compileStages(spec);
  expect(problems).toEqual([]);
  if (compiled === null) throw new Error('no stages');
  return compiled;
};

describe('command patterns read like allow rules', () => {
  it('compares words, the program by basename, and a lone final * for further arguments', () => {
    expect(matches('mise run test', 'mise run test')).toBe(true);
    expect(matches('mise run test', '/usr/local/bin/mise run test')).toBe(true);
    expect(matches('mise run test', 'mise run test --watch')).toBe(false);
    expect(matches('mise run test *', 'mise run test --watch')).toBe(true);
    expect(matches('mise run test *', 'mise run test')).toBe(true);
    expect(matches('mise run test*', 'mise run test:unit')).toBe(true);
    expect(matches('./scripts/*.sh', './scripts/ci.sh')).toBe(true);
    expect(matches('./scripts/*.sh', 'scripts/ci.sh')).toBe(false);
    expect(matches('*.sh', './scripts/ci.sh')).toBe(true);
    expect(matches('make ch?ck', 'make check')).toBe(true);
    expect(matches('make', 'cmake')).toBe(false);
  });

  it('globs without backtracking blow-up on long words', () => {
    expect(globWord('*a*a*a*a*a*b', 'a'.repeat(5000))).toBe(false);
  });
});

describe('regex bounds', () => {
  it('refuses a repeated group that repeats, and says why', () => {
    expect(nestedRepeat('^(a+)+$')).toBe('(a+)+');
    expect(nestedRepeat('(\\w*x)*')).toBe('(\\w*x)*');
    expect(nestedRepeat('((ab)+c)+')).toBe('((ab)+c)+');
    expect(nestedRepeat('^(foo|bar)+ \\d+')).toBeNull();
    expect(nestedRepeat('[(a+)+]')).toBeNull();
    expect(nestedRepeat('\\(a+\\)+')).toBeNull();
    const refused = compilePattern('(x+)*y');
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.reason).toMatch(/repeats a group that itself repeats/);
    const invalid = compilePattern('(unclosed');
    expect(invalid.ok).toBe(false);
  });

  it('stops work that runs past the budget, even inside a regex backtracking', () => {
    const started = Date.now();
    expect(() => withinBudget(() => /^(a|a)*$/.test(`${'a'.repeat(40)}!`), 50)).toThrow(BudgetExceeded);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(withinBudget(() => 42, 50)).toBe(42);
  });
});

describe('stages run in their fixed order', () => {
  it('strips, replaces, cuts a section, skips, keeps, collapses, groups, truncates, heads and tails', () => {
    expect(applyStages(stages({ strip_ansi: true, skip: ['^$'] }), '\x1b[32mok\x1b[0m\n\nline\n')).toBe('ok\nline\n');
    expect(applyStages(stages({ replace: [{ pattern: '^(\\S+) took (\\d+)ms$', output: '{1} ({2} ms)' }] }), 'build took 12ms\nx\n')).toBe('build (12 ms)\nx\n');
    expect(applyStages(stages({ section: { start: '^FAIL', end: '^END' } }), 'a\nFAIL x\nb\nEND\nc\n')).toBe('FAIL x\nb\nEND\n');
    expect(applyStages(stages({ section: { start: '^NEVER' } }), 'a\nb\n')).toBe('a\nb\n');
    expect(applyStages(stages({ keep: ['error'] }), 'ok\nerror: x\nok\n')).toBe('error: x\n');
    expect(applyStages(stages({ collapse: [{ pattern: '^PASS', label: '{count} passed (first: {first})' }] }), 'PASS a\nPASS b\nPASS c\nFAIL d\n')).toBe('PASS 3 passed (first: PASS a)\n'.replace('PASS 3', '3') + 'FAIL d\n');
    expect(applyStages(stages({ group: { pattern: '^(\\S+):\\d+:', max_per_group: 1 } }), 'a.ts:1: x\nb.ts:2: y\na.ts:3: z\n')).toBe('a.ts:1: x\n… 1 more for a.ts\nb.ts:2: y\n');
    expect(applyStages(stages({ truncate_lines_at: 8 }), '0123456789abc\n')).toBe('0123456…\n');
    expect(applyStages(stages({ head_lines: 1, tail_lines: 1 }), '1\n2\n3\n4\n')).toBe('1\n… 2 lines …\n4\n');
    expect(applyStages(stages({ head_lines: 1, tail_lines: 1 }), '1\n2\n3\n')).toBe('1\n2\n3\n');
    expect(applyStages(stages({ skip: ['.'], on_empty: 'nothing to report' }), 'a\nb\n')).toBe('nothing to report\n');
  });

  it('keeps its order whatever the file lists first: skip runs before head', () => {
    expect(applyStages(stages({ head_lines: 1, skip: ['^#'] }), '# c\nx\ny\nz\nw\n')).toBe('x\n… 3 lines …\n');
  });
});

describe('parsing a filter file', () => {
  const parse = (text: string) => parseFilterFile(text, '/p/.tokenless/filters/f.toml', 'project');

  it('one filter per file takes the file name; several live under [filters.NAME]', () => {
    expect(parse('command = "make check"\nskip = ["^x"]\n').filters.map((filter) => filter.name)).toEqual(['f']);
    const many = parse('[filters.a]\ncommand = "a"\n[filters.b]\ncontent = "^==="\npriority = "after"\n');
    expect(many.problems).toEqual([]);
    expect(many.filters.map((filter) => [filter.name, filter.priority])).toEqual([['a', 'before'], ['b', 'after']]);
  });

  it('names the file, the line and what is wrong', () => {
    const toml = parse('command = "x"\nskip = [\n');
    expect(toml.filters).toEqual([]);
    expect(toml.problems[0]?.line).toBe(3);
    const unknown = parse('command = "x"\n\nskipp = ["a"]\n');
    expect(unknown.problems[0]).toMatchObject({ path: '/p/.tokenless/filters/f.toml', line: 3 });
    expect(unknown.problems[0]?.message).toMatch(/skipp.*allowed: name, description, command/);
    const backtracking = parse('command = "x"\n\nkeep = ["^(a+)+$"]\n');
    expect(backtracking.problems[0]).toMatchObject({ line: 3 });
    expect(backtracking.problems[0]?.message).toMatch(/keep\[0\] "\^\(a\+\)\+\$": \(a\+\)\+ repeats a group/);
    expect(parse('skip = ["a"]\n').problems[0]?.message).toMatch(/needs `command`/);
    expect(parse('command = "x"\nhead_lines = -1\n').problems).toHaveLength(1);
  });

  it('on_failure overrides the shared stages for a non-zero exit', () => {
    const [filter] = parse('command = "x"\nskip = ["^noise"]\n[on_failure]\ntail_lines = 1\n').filters;
    if (filter === undefined) throw new Error('no filter');
    expect(applyStages(filter.onSuccess, 'noise\na\nb\nc\n')).toBe('a\nb\nc\n');
    expect(applyStages(filter.onFailure, 'noise\na\nb\nc\n')).toBe('… 2 lines …\nc\n');
  });
});
