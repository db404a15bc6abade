import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSeedBenchmark, type SeedMessage } from '../../../src/budget/seed-benchmark.ts';
import { FIXTURES_DIR } from '../../helpers/fixtures.ts';

const dir = join(FIXTURES_DIR, 'seed-benchmarks', 'syt-benchmark');
const messages = readFileSync(join(dir, 'agentic_session.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as SeedMessage);

describe('seed benchmark replica', () => {
  const result = runSeedBenchmark(messages);

  it("reproduces the seed's published figures exactly", () => {
    expect(result.managedTotal).toBe(592_714);
    expect(result.seedBaselineTotal).toBe(701_387);
    expect(result.seedSavedShare).toBeCloseTo(0.155, 3);
    expect(result.compactionEvents).toBe(2);
  });

  it("matches the seed's per-turn results.csv", () => {
    const rows = readFileSync(join(dir, 'results.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(',').map(Number));
    expect(result.turns.map((t) => [t.turn, t.managed, t.compaction ? 1 : 0])).toEqual(rows.map(([turn, managed, , compaction]) => [turn, managed, compaction]));
  });

  it('aligned with the same message, the baseline is 952,354 and the saving 37.8%', () => {
    expect(result.alignedBaselineTotal).toBe(952_354);
    expect(result.alignedSavedShare).toBeCloseTo(0.378, 3);
  });
});
