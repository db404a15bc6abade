import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_PROFILES } from '../../../src/budget/profiles.ts';
import { simulateSession, type SessionItem } from '../../../src/budget/simulate.ts';
import { FIXTURES_DIR } from '../../helpers/fixtures.ts';

describe('simulateSession', () => {
  it('evicts stale ephemeral blocks at the interval and keeps persistent ones', () => {
    const items: SessionItem[] = [{ turn: 0, layer: 'persistent', tokens: 100, source: 'system' }];
    for (let turn = 1; turn <= 30; turn += 1) items.push({ turn, layer: 'ephemeral', tokens: 10, source: 'tool' });
    const result = simulateSession(items, { contextWindow: 200_000, profile: BUILTIN_PROFILES.agentic, staleAfterTurns: 5, compactEveryTurns: 10 });
    expect(result.snapshots).toHaveLength(31);
    expect(result.snapshots.at(-1)?.baselineTokens).toBe(400);
    expect(result.compactionEvents).toBe(3);
    expect(result.snapshots.at(-1)?.managedTokens).toBeLessThan(400);
    expect(result.snapshots.at(-1)?.managedTokens).toBeGreaterThanOrEqual(100);
    expect(result.savedShare).toBeGreaterThan(0);
  });

  it('runs over the seed synthetic session (72 messages, 40 turns)', () => {
    const path = join(FIXTURES_DIR, 'seed-benchmarks', 'syt-benchmark', 'agentic_session.jsonl');
    const items = readFileSync(path, 'utf8').trim().split('\n').map((line): SessionItem => {
      const m = JSON.parse(line) as { turn: number; layer: 'persistent' | 'session' | 'ephemeral'; content: string; type: string };
      return { turn: m.turn, layer: m.layer, tokens: Math.max(1, Math.floor(m.content.length / 4)), source: m.type };
    });
    const result = simulateSession(items, { contextWindow: 200_000, profile: BUILTIN_PROFILES.agentic, staleAfterTurns: 8, compactEveryTurns: 10 });
    expect(result.snapshots).toHaveLength(40);
    // Correctly aligned baseline: everything sent through the same turn.
    expect(result.snapshots.at(-1)?.baselineTokens).toBe(items.reduce((sum, i) => sum + i.tokens, 0));
    expect(result.savedShare).toBeGreaterThan(0.3);
  });
});
