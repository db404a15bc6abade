import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { arbitrate } from '../../../src/runtime/arbitrate.ts';
import { commit } from '../../../src/runtime/commit.ts';
import { Runtime } from '../../../src/runtime/runtime.ts';
import { elide, lossless, retrievable } from '../../../src/reduce/candidate.ts';

const original = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon\n'.repeat(4);

describe('arbitrate', () => {
  it('drops candidates that are not strictly shorter in bytes and tokens', () => {
    expect(arbitrate(original, [lossless(original, ['same'])])).toBeNull();
    expect(arbitrate(original, [lossless(`${original} `, ['longer'])])).toBeNull();
  });

  it('prefers the fewest tokens, then lossless on a tie', () => {
    const short = lossless(original.slice(0, 100), ['short']);
    const shorter = lossless(original.slice(0, 50), ['shorter']);
    expect(arbitrate(original, [short, shorter])?.candidate.operations).toEqual(['shorter']);
    const { entry } = elide(original);
    const tieLossy = retrievable(original.slice(0, 50), ['lossy'], [entry]);
    expect(arbitrate(original, [tieLossy, shorter])?.candidate.operations).toEqual(['shorter']);
  });

  it('adopts a lossy candidate only when it saves at least 10% and 8 tokens', () => {
    const { entry } = elide(original);
    const barely = retrievable(original.slice(0, original.length - 12), ['barely'], [entry]);
    expect(arbitrate(original, [barely])).toBeNull();
    const clearly = retrievable(original.slice(0, original.length / 2), ['clearly'], [entry]);
    expect(arbitrate(original, [clearly])?.candidate.operations).toEqual(['clearly']);
  });
});

describe('a discarded candidate', () => {
  it('leaves nothing in the stash: only the adopted candidate is committed', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tokenless-discard-'));
    const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: dataDir }));
    try {
      const lossy = elide(original);
      const losing = retrievable(`${original.slice(0, 300)}${lossy.marker}`, ['lossy'], [lossy.entry]);
      const winning = lossless(original.slice(0, 120), ['lossless']);
      const adopted = arbitrate(original, [losing, winning]);
      expect(adopted?.candidate.operations).toEqual(['lossless']);
      if (adopted !== null) commit(runtime, original, adopted, { lifecycle: 'post_tool', agentId: 'a', sessionId: 's' });
      expect(runtime.stash.get(lossy.entry.key)).toEqual({ ok: false, reason: 'unknown' });
      expect(runtime.stash.stats().entries).toBe(0);
    } finally {
      runtime.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
