import { describe, expect, it } from 'vitest';
import { commandKey } from '../../../src/analyze/discover.ts';
import { draftFilterFile } from '../../../src/filters/file/draft.ts';
import { parseFilterFile } from '../../../src/filters/file/parse.ts';
import { runInlineTests } from '../../../src/filters/file/inline-tests.ts';

describe('discover: the command a filter would name', () => {
  it.each([
    ['make check', 'make check'],
    ['cd web && npm run test -- --watch=false', 'npm run test'],
    ['FOO=1 timeout 60 cargo test -p core', 'cargo test'],
    ['./scripts/ci.sh --fast', './scripts/ci.sh'],
    ['/usr/bin/find . -name x', 'find'],
    ['python3 -m pytest -q tests/', 'python3 -m pytest'],
    ['python scripts/sync.py --all', 'python scripts/sync.py'],
    ['gh pr view 12 --comments', 'gh pr'],
    ['mise run lint', 'mise run lint'],
  ])('%s → %s', (line, key) => {
    expect(commandKey(line)).toBe(key);
  });

  it('declines a line the parser cannot read', () => {
    expect(commandKey('echo "unterminated')).toBeNull();
  });
});

describe('discover: a drafted filter file', () => {
  const outputs = [
    { output: `${Array.from({ length: 30 }, (_, i) => `synced item-${i} (${i * 3} ms)`).join('\n')}\nerror: item-31 refused\nerror: item-32 refused\nerror: item-33 refused\ndone: 30 synced, 3 errors\n`, failed: true },
    { output: `${Array.from({ length: 12 }, (_, i) => `synced row-${i}`).join('\n')}\n\n\ndone: 12 synced\n`, failed: false },
  ];

  it('parses, passes its own inline tests, folds the repeated lines and keeps every error line', () => {
    const text = draftFilterFile('./scripts/sync.sh', outputs);
    const parsed = parseFilterFile(text, '/x/sync.toml', 'user');
    expect(parsed.problems).toEqual([]);
    const [filter] = parsed.filters;
    if (filter === undefined) throw new Error('no filter');
    expect(runInlineTests(filter).every((result) => result.passed)).toBe(true);
    expect(text).toContain('pattern = "^synced(\\\\s|$)"');
    expect(filter.tests[0]?.expected).toContain('error: item-31 refused\nerror: item-32 refused\nerror: item-33 refused\n');
    expect(filter.tests[0]?.expected).not.toContain('synced item-5 ');
    expect(text).not.toContain('priority');
  });

  it('comes after a built-in filter that already views the command', () => {
    expect(draftFilterFile('git status', outputs)).toMatch(/^priority = "after" {2}# the built-in git-status filter/m);
  });
});
