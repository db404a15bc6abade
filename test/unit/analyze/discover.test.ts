import { describe, expect, it } from 'vitest';
import { commandKey, rankCommands } from '../../../src/analyze/discover.ts';
import type { SessionReplay } from '../../../src/replay/session-replay.ts';
import type { RecordedSession } from '../../../src/replay/transcript.ts';
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

  it('skips rule lines and cuts lines long enough to carry a tenth of the text', () => {
    const rule = '='.repeat(60);
    const text = draftFilterFile('./report.sh', [{ output: `${rule}\nresult one\n${rule}\nresult two\n${'x'.repeat(500)}\n`, failed: false }]);
    const [filter] = parseFilterFile(text, '/x/report.toml', 'user').filters;
    expect(text).toContain('truncate_lines_at = 200');
    expect(filter?.tests[0]?.expected).toBe(`result one\nresult two\n${'x'.repeat(199)}…\n`);
  });

  it('comes after a built-in filter that already views the command', () => {
    expect(draftFilterFile('git status', outputs)).toMatch(/^priority = "after" {2}# the built-in git-status filter/m);
  });
});

describe('discover: the ranking', () => {
  const synced = `${Array.from({ length: 60 }, (_, i) => `synced item-${i} from the remote store (${i * 3} ms)`).join('\n')}\ndone\n`;
  const calls = [
    // Longest of all, but a built-in filter owns git status: a draft (after the built-ins) would never run.
    { command: 'git status', content: `${'On branch main, nothing here repeats at all; '.repeat(200)}\n` },
    { command: './scripts/sync.sh', content: synced },
    // Repetitive but under the view threshold: never handed to a filter.
    { command: './scripts/tiny.sh', content: 'ok 1\nok 2\nok 3\nok 4\n' },
  ];
  const session = { sessionId: 's', calls: calls.map((call, i) => ({ tool: 'Bash', toolUseId: `t${i}`, input: { command: call.command }, content: call.content })) } as unknown as RecordedSession;
  const replay = { calls: calls.map((call) => ({ ran: true, failed: false, before: call.content.length, after: call.content.length })) } as unknown as SessionReplay;

  it('ranks by what a draft would save, not by raw tokens, and leaves out what a built-in owns or the threshold skips', () => {
    const ranked = rankCommands([session], [replay]);
    expect(ranked.map((row) => row.key)).toEqual(['./scripts/sync.sh', 'git status', './scripts/tiny.sh']);
    expect(ranked[0]?.draftSaves).toBeGreaterThan(0);
    expect(ranked.slice(1).map((row) => [row.draftable, row.draftSaves])).toEqual([[0, 0], [0, 0]]);
  });
});
