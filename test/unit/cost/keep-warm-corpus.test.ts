/**
 * The competitive bound on every recorded Claude Code session of the shared corpus: over each pause keep-warm spends
 * at most twice the best hindsight choice for it (pings or the re-write). The pings after a session's last request are
 * left out: its end is not recorded, so they have no hindsight choice to compare with (they are counted in the cost).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simulateCache } from '../../../src/cost/cache-sim.ts';
import { priceFor } from '../../../src/cost/pricing.ts';
import { readSimSession } from '../../../src/cost/requests.ts';

import { ROOT } from '../../helpers/root.ts';

const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'transcripts');
// The shared corpus when this checkout sits next to it (46 sessions); on a clean clone, the bundled copies of its
// claude-code sessions.
const DIRS = existsSync(CORPUS) ? ['claude-code', 'claude-code-more', 'claude-code-chatjson'].map((d) => join(CORPUS, d)) : [join(ROOT, 'test', 'fixtures', 'transcripts', 'claude-code')];
const files = DIRS.flatMap((d) => readdirSync(d).filter((f) => /\.jsonl?$/.test(f)).map((f) => join(d, f)));

describe('keep-warm on the recorded pauses of every corpus session', () => {
  it('never costs more than 2x the hindsight choice, and pings somewhere', () => {
    expect(files.length).toBeGreaterThan(existsSync(CORPUS) ? 40 : 5);
    let pinged = 0;
    for (const file of files) {
      const session = readSimSession(readFileSync(file, 'utf8'), file);
      const gaps = simulateCache(session.requests, new Map(), { prefixTtl: '5m', conversationTtl: '5m', keepWarm: { price: priceFor } }).flatMap((s) => s.keepWarm ?? []);
      for (const gap of gaps.filter((g) => !g.tail)) {
        pinged += gap.pings;
        expect(gap.dollars, file).toBeLessThanOrEqual(2 * gap.hindsight + 1e-12);
      }
    }
    expect(pinged).toBeGreaterThan(0);
  });
});
