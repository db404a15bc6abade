import { describe, expect, it } from 'vitest';
import { stashKeyFor } from '../../../src/store/marker.ts';
import { buildChains } from '../../../src/store/stats-chain.ts';
import { getRecord, sessionRecords, withStatsReader } from '../../../src/store/stats-client.ts';
import { DIFF_MAX_LINES, unifiedDiff } from '../../../src/store/stats-diff.ts';
import { HOST_SHOWN_CHARS, compareSessions, listRecords, recordFigures, savingRows, summarize } from '../../../src/store/stats-query.ts';
import { StatsRecorder } from '../../../src/store/stats.ts';
import { SEED } from './seed.ts';
import { useTempDirs } from '../../helpers/temp.ts';
import { T0, seedStats } from './seed.ts';

const tempDir = useTempDirs();

function seeded(): string {
  const dir = tempDir();
  seedStats(dir);
  return dir;
}

describe('summarize', () => {
  it('groups active rows by operation, tool, session and day, and keeps dry-run rows apart', () => {
    const summary = withStatsReader(seeded(), null, (db) => summarize(db));
    expect(summary?.totals.records).toBe(5);
    expect(summary?.dryRun.records).toBe(2);
    expect(summary?.byDay.map((g) => g.key)).toEqual(['2026-03-01', '2026-03-02']);
    expect(summary?.byTool.map((g) => g.key)).toEqual(['Bash', 'Read', 'Grep']);
    expect(summary?.bySession.map((g) => g.key)).toEqual(['session-a', 'session-b']);
  });

  it('shows an output that grew as a negative saving', () => {
    const summary = withStatsReader(seeded(), null, (db) => summarize(db));
    expect(summary?.byOperation.find((g) => g.key === 'search_paths')?.savedTokens).toBe(-3);
  });

  it(`caps a run output's before at the ${HOST_SHOWN_CHARS} characters the host shows`, () => {
    const summary = withStatsReader(seeded(), null, (db) => summarize(db));
    const run = summary?.byOperation.find((g) => g.key === 'test_summary');
    expect(run?.rawBeforeTokens).toBe(7_200);
    expect(run?.hostCapped).toBe(1);
    expect(run?.beforeTokens).toBeLessThan(7_200);
    expect(run?.beforeTokens).toBeGreaterThan(6_000);
  });

  it('honours limit and since', () => {
    const dir = seeded();
    expect(withStatsReader(dir, null, (db) => summarize(db, { limit: 2, mode: 'all' }))?.totals.records).toBe(2);
    expect(withStatsReader(dir, null, (db) => summarize(db, { since: T0 + 86_400_000 }))?.totals.records).toBe(1);
  });
});

describe('a capped output: the host cap applies to "before" only', () => {
  /** A 476 KB `cat` through the hook, shown to the model as a 2.8 KB view of 700 tokens. */
  function capped(): string {
    const dir = tempDir();
    const big = 'x'.repeat(475_999) + '\n';
    const view = 'y'.repeat(2_799) + '\n';
    const recorder = new StatsRecorder(dir, () => T0);
    const base = SEED[0]![1];
    expect(recorder.tryRecord([{ ...base, toolName: 'Bash', operations: ['head_tail'], before: big, after: view, beforeTokens: 120_000, afterTokens: 700 }])).toBe(true);
    recorder.close();
    return dir;
  }

  it('stats list, summary and show count the same figures (stats list showed the view as 44 tokens, show 700 regression)', () => {
    const dir = capped();
    const summary = withStatsReader(dir, null, (db) => summarize(db));
    const [listed] = withStatsReader(dir, [], (db) => listRecords(db, 1));
    const shown = withStatsReader(dir, null, (db) => recordFigures(db, 1));
    const before = Math.round((120_000 * HOST_SHOWN_CHARS) / 476_000);
    expect(summary?.totals).toMatchObject({ beforeTokens: before, afterTokens: 700, savedTokens: before - 700, rawBeforeTokens: 120_000, hostCapped: 1 });
    expect(listed).toMatchObject({ before_tokens: before, after_tokens: 700, saved_tokens: before - 700 });
    expect(shown).toMatchObject({ before_tokens: before, after_tokens: 700, raw_before_tokens: 120_000, raw_after_tokens: 700, host_capped: 1 });
  });
});

describe('records, compare and savings rows', () => {
  it('lists newest first with capped savings', () => {
    const rows = withStatsReader(seeded(), [], (db) => listRecords(db, 3));
    expect(rows.map((r) => r.id)).toEqual([7, 6, 5]);
  });

  it('compares a dry-run baseline with an active session', () => {
    const comparison = withStatsReader(seeded(), null, (db) => compareSessions(db, 'baseline', 'session-b'));
    expect(comparison?.baseline.totals).toMatchObject({ records: 2, savedTokens: 224 });
    expect(comparison?.session.totals).toMatchObject({ records: 1, savedTokens: 220 });
  });

  it('returns per-record savings of active rows only, oldest first', () => {
    const rows = withStatsReader(seeded(), [], (db) => savingRows(db));
    expect(rows).toHaveLength(5);
    expect(rows[0]?.ts).toBe(T0);
  });

  it('reads a row back through the schema', () => {
    expect(withStatsReader(seeded(), null, (db) => getRecord(db, 1))).toMatchObject({ before_digest: stashKeyFor('{ "a": 1,\n  "b": 2 }\n'), before_lines: 2, after_lines: 1 });
  });
});

describe('session chains', () => {
  it('links a stage to the next only when its output is the next input', () => {
    const dir = seeded();
    const chains = withStatsReader(dir, [], (db) => buildChains(sessionRecords(db, 'session-a')));
    expect(chains.map((c) => [c.toolUseId, c.stages.length])).toEqual([['toolu_1', 1], ['toolu_2', 2], ['toolu_3', 1]]);
    const two = chains[1];
    expect(two?.stages[0]?.linkedToNext).toBe(true);
    expect(two?.endToEnd).toEqual({ beforeTokens: 7_200, afterTokens: 4, complete: true });
  });

  it('reports a broken link', () => {
    const dir = seeded();
    const rows = withStatsReader(dir, [], (db) => sessionRecords(db, 'session-a', 'toolu_2'));
    const [first, second] = rows;
    if (first === undefined || second === undefined) throw new Error('seed');
    const chains = buildChains([first, { ...second, before_digest: stashKeyFor('something else') }]);
    expect(chains[0]?.stages[0]?.linkedToNext).toBe(false);
    expect(chains[0]?.endToEnd.complete).toBe(false);
  });
});

describe('unifiedDiff', () => {
  it('produces hunks with context', () => {
    const diff = unifiedDiff('a\nb\nc\nd\n', 'a\nB\nc\nd\n');
    expect(diff.text).toBe('--- before\n+++ after\n@@ -1,4 +1,4 @@\n a\n-b\n+B\n c\n d\n');
    expect([diff.added, diff.removed, diff.truncated]).toEqual([1, 1, false]);
  });

  it('shows a lost final newline as a change', () => {
    expect(unifiedDiff('x\n', 'x').text).toBe('--- before\n+++ after\n@@ -1,1 +1,1 @@\n-x\n+x\n\\ No newline at end of file\n');
  });

  it('handles empty sides', () => {
    expect(unifiedDiff('', 'x\n').text).toBe('--- before\n+++ after\n@@ -0,0 +1,1 @@\n+x\n');
    expect(unifiedDiff('x\n', 'x\n').text).toBe('--- before\n+++ after\n');
  });

  it(`caps at ${DIFF_MAX_LINES} lines and says so`, () => {
    const before = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n');
    const diff = unifiedDiff(before, '');
    expect(diff.lines).toBe(DIFF_MAX_LINES);
    expect(diff.truncated).toBe(true);
    expect(diff.removed).toBe(2000);
  });

  it('stays fast on large, very different texts', () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `a ${i}`).join('\n');
    const b = Array.from({ length: 20_000 }, (_, i) => `b ${i}`).join('\n');
    const start = performance.now();
    expect(unifiedDiff(a, b).truncated).toBe(true);
    expect(performance.now() - start).toBeLessThan(2_000);
  });
});
