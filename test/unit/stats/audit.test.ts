import { describe, expect, it } from 'vitest';
import { audit } from '../../../src/store/stats-audit.ts';
import type { KeptRecord } from '../../../src/store/stats-kept.ts';

const kept: KeptRecord = {
  id: 7,
  operation: 'generic',
  before: { bytes: 12, lines: 3, tokens: 6, digest: 'a'.repeat(24) },
  after: { bytes: 4, lines: 2, tokens: 3, digest: 'b'.repeat(24) },
  retrieve: ['tokenless retrieve 123'],
};
const figures = { before_tokens: 6, after_tokens: 3, host_capped: false };

describe('stats diff audit', () => {
  it('diffs the original against the view, naming both digests and the marker', () => {
    const result = audit(kept, 'run seq generic', figures, 7, { ok: true, text: 'one\ntwo\nthree\n' }, { ok: true, text: 'one\n…\n' });
    expect(result.header).toBe('#7 run seq generic: 6 -> 3 tokens (as stats list counts them)\nmarker: tokenless retrieve 123');
    expect(result.diff).toBe(`--- original (sha256 ${'a'.repeat(24)}, 12 bytes)\n+++ view (sha256 ${'b'.repeat(24)}, 4 bytes)\n@@ -1,3 +1,2 @@\n one\n-two\n-three\n+…\n`);
  });

  it('says plainly that an expired original cannot be diffed and shows the digests', () => {
    const result = audit(kept, 'run seq generic', figures, 7, { ok: false, reason: 'expired' }, { ok: true, text: 'one\n…\n' });
    expect(result.diff).toBeNull();
    expect(result.missing).toContain('no diff: the original is expired from the stash.');
    expect(result.missing).toContain(`original: 3 line(s), 12 bytes, 6 tokens, sha256 ${'a'.repeat(24)}`);
    expect(result.missing).toContain(`view:     2 line(s), 4 bytes, 3 tokens, sha256 ${'b'.repeat(24)}`);
  });
});
