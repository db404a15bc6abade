import { describe, expect, it } from 'vitest';
import { compactDiff, compactDiffHeaders, expandDiffHeaders } from '../../../src/compress/diff.ts';
import type { CompressInput } from '../../../src/compress/types.ts';
import { loadCorpus } from '../../helpers/fixtures.ts';

const input = (content: string): CompressInput => ({ content, origin: 'command_output', toolName: 'Bash', contentType: 'diff' });

const sample = [
  'diff --git a/lib/x.js b/lib/x.js',
  'index 1a2b3c4..5d6e7f8 100644',
  '--- a/lib/x.js',
  '+++ b/lib/x.js',
  '@@ -1,2 +1,2 @@',
  '-old',
  '+new',
  'diff --git a/new.txt b/new.txt',
  'new file mode 100644',
  'index 0000000..e69de29',
  '--- /dev/null',
  '+++ b/new.txt',
  '@@ -0,0 +1 @@',
  '+hi',
  'diff --git a/a.txt b/b.txt',
  'similarity index 90%',
  'rename from a.txt',
  'rename to b.txt',
  '',
].join('\n');

describe('compactDiffHeaders', () => {
  it('drops only the ---/+++ lines that repeat the header path, and expands back byte for byte', () => {
    const compacted = compactDiffHeaders(sample);
    expect(compacted).not.toContain('--- a/lib/x.js');
    expect(compacted).toContain('--- /dev/null');
    expect(compacted).toContain('rename from a.txt');
    expect(compacted.split('\n').filter((l) => l.startsWith('@@')).length).toBe(2);
    expect(expandDiffHeaders(compacted)).toBe(sample);
  });

  it('round-trips every diff in the corpus and keeps every hunk', () => {
    let compacted = 0;
    for (const corpusCase of loadCorpus().filter((c) => /^git-(diff|show)/.test(c.id))) {
      const candidate = compactDiff(input(corpusCase.stdout), { searchPathSharing: true });
      if (candidate === null) continue;
      compacted++;
      expect(candidate.recoverability).toBe('lossless');
      expect(expandDiffHeaders(candidate.output)).toBe(corpusCase.stdout);
      const hunks = (text: string): number => text.split('\n').filter((l) => l.startsWith('@@ ')).length;
      expect(hunks(candidate.output)).toBe(hunks(corpusCase.stdout));
    }
    expect(compacted).toBeGreaterThanOrEqual(5);
  });
});
