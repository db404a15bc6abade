import { describe, expect, it } from 'vitest';
import { encodeSearchPaths } from '../../../src/compress/search-paths.ts';
import { distinctiveWords, hiddenWordsUsed, isDistinctive, WordIndex, type TimelineEntry } from '../../../src/replay/evidence.ts';

const original = ['src/app/server.ts:12: listen(port)', 'src/app/routes.ts:40: handleLoginRequest()', 'src/lib/cache.ts:7: evictOldest()', ''].join('\n');
const view = 'src/app/server.ts:12: listen(port)\n… 2 more matches\n[tokenless retrieve 00000000000000000000000000001]\n';

function timeline(...entries: TimelineEntry[]): TimelineEntry[] {
  return entries;
}

describe('evidence of need', () => {
  it('keeps paths, identifiers, hashes and long numbers, not words or small counts', () => {
    for (const word of ['src/lib/cache.ts', 'handleLoginRequest', 'evict_oldest', '3f9a2c1d', '2026', 'cache.ts']) expect(isDistinctive(word), word).toBe(true);
    for (const word of ['the', 'cache', 'Error', '42', 'abcdefg']) expect(isDistinctive(word), word).toBe(false);
    expect([...distinctiveWords('see src/lib/cache.ts:7, then evictOldest().')]).toEqual(expect.arrayContaining(['src/lib/cache.ts:7', 'evictOldest']));
  });

  it('finds a word the agent wrote next that only the original held', () => {
    const t = timeline({ kind: 'user', text: 'find the login handler' }, { kind: 'result', text: original }, { kind: 'agent', text: 'Reading src/app/routes.ts to see handleLoginRequest' });
    expect(hiddenWordsUsed(t, new WordIndex(t), 1, original, view)).toEqual(['handleLoginRequest', 'src/app/routes.ts']);
  });

  it('does not count a word seen earlier, shown by a result in between, or kept by a view that only reformats', () => {
    const earlier = timeline({ kind: 'user', text: 'look at src/app/routes.ts and handleLoginRequest' }, { kind: 'result', text: original }, { kind: 'agent', text: 'Reading src/app/routes.ts to see handleLoginRequest' });
    expect(hiddenWordsUsed(earlier, new WordIndex(earlier), 1, original, view)).toEqual([]);
    const between = timeline({ kind: 'result', text: original }, { kind: 'result', text: 'src/app/routes.ts handleLoginRequest' }, { kind: 'agent', text: 'Reading src/app/routes.ts to see handleLoginRequest' });
    expect(hiddenWordsUsed(between, new WordIndex(between), 0, original, view)).toEqual([]);
    const shared = encodeSearchPaths(original);
    expect(shared).not.toBeNull();
    const reformatted = timeline({ kind: 'result', text: original }, { kind: 'agent', text: 'Reading src/app/routes.ts:40 and src/lib/cache.ts:7' });
    expect(hiddenWordsUsed(reformatted, new WordIndex(reformatted), 0, original, shared ?? '')).toEqual([]);
  });
});
