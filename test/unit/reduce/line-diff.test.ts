import { describe, expect, it } from 'vitest';
import { diffLines, splitLines } from '../../../src/reduce/line-diff.ts';

describe('diffLines', () => {
  it('finds interleaved insertions, removals and replacements with 1-based lines on each side', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f'];
    const after = ['a', 'x', 'c', 'd', 'f', 'g'];
    expect(diffLines(before, after)).toEqual([
      { oldStart: 2, removed: ['b'], newStart: 2, added: ['x'] },
      { oldStart: 5, removed: ['e'], newStart: 5, added: [] },
      { oldStart: 7, removed: [], newStart: 6, added: ['g'] },
    ]);
    expect(diffLines(before, before)).toEqual([]);
    expect(splitLines('a\nb\n')).toEqual(['a', 'b']);
  });

  it('gives up past its caps instead of working on', () => {
    const before = Array.from({ length: 50 }, (_, i) => `line ${i}`);
    const after = before.map((line, i) => (i % 2 === 0 ? `${line}!` : line));
    expect(diffLines(before, after, { maxLines: 1000, maxEdits: 10 })).toBeNull();
    expect(diffLines(before, after, { maxLines: 20, maxEdits: 1000 })).toBeNull();
    expect(diffLines(before, after)?.length).toBe(25);
  });
});
