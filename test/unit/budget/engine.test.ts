import { describe, expect, it } from 'vitest';
import { computeUsage, createBudget, endTurn, layerBudgets, overageLevel, removeBlocks, staleBlocks } from '../../../src/budget/engine.ts';
import { applyActions, ladderRung, recommendActions } from '../../../src/budget/ladder.ts';
import { BUILTIN_PROFILES, ephemeralShare, resolveProfile } from '../../../src/budget/profiles.ts';
import { budgetSettingsFrom, pickProfile } from '../../../src/budget/settings.ts';
import type { ContextBlock } from '../../../src/budget/types.ts';

const agentic = BUILTIN_PROFILES.agentic;
const block = (id: string, layer: ContextBlock['layer'], tokens: number, lastReferencedTurn = 0): ContextBlock => ({ id, layer, tokens, source: id, lastReferencedTurn });

describe('profiles', () => {
  it.each([
    ['chat', 0.05, 0.2, 0.25, 0.5],
    ['agentic', 0.15, 0.35, 0.2, 0.3],
    ['rag', 0.05, 0.1, 0.25, 0.6],
  ] as const)('%s has the seed shares', (name, persistent, session, reserve, ephemeral) => {
    const profile = resolveProfile(name);
    expect(profile).toMatchObject({ persistent, session, outputReserve: reserve });
    expect(ephemeralShare(profile!)).toBeCloseTo(ephemeral);
  });

  it('reads custom profiles from config and rejects shares over 1', () => {
    const settings = budgetSettingsFrom({ profile: 'lean', profiles: { lean: { persistent: 0.1, session: 0.1, output_reserve: 0.3 } } });
    expect(pickProfile(settings)).toEqual({ name: 'lean', persistent: 0.1, session: 0.1, outputReserve: 0.3 });
    expect(budgetSettingsFrom({ profiles: { bad: { persistent: 0.6, session: 0.5, output_reserve: 0 } } }).error).toMatch(/budget/);
    expect(resolveProfile('nope')).toBeNull();
  });
});

describe('budget engine', () => {
  it('reserves output first, then splits the rest', () => {
    expect(layerBudgets(200_000, agentic)).toEqual({ outputReserve: 40_000, available: 160_000, persistent: 24_000, session: 56_000, ephemeral: 80_000 });
  });

  it.each([
    [100, 100, 'within'],
    [104, 100, 'warn'],
    [105, 100, 'compact'],
    [119, 100, 'compact'],
    [120, 100, 'reject'],
    [1, 0, 'reject'],
    [0, 0, 'within'],
  ] as const)('%i used of %i is %s', (used, budget, level) => {
    expect(overageLevel(used, budget)).toBe(level);
  });

  it('never mutates a state', () => {
    const start = createBudget(200_000, agentic, [block('a', 'session', 10)]);
    const frozen = Object.freeze({ ...start, blocks: Object.freeze([...start.blocks]) });
    expect(removeBlocks(frozen, ['a']).blocks).toHaveLength(0);
    expect(frozen.blocks).toHaveLength(1);
  });

  it('counts staleness in turns since the last reference', () => {
    let state = createBudget(200_000, agentic, [block('old', 'ephemeral', 10), block('kept', 'ephemeral', 10), block('p', 'persistent', 10)]);
    for (let i = 0; i < 12; i += 1) state = endTurn(state, i === 5 ? ['kept'] : []);
    expect(state.turn).toBe(12);
    expect(staleBlocks(state, 10).map((b) => b.id)).toEqual(['old']);
    expect(staleBlocks(state, 6).map((b) => b.id)).toEqual(['old', 'kept']);
  });
});

describe('ladder', () => {
  it.each([
    [0.79, null],
    [0.8, 'drop_stale_ephemeral'],
    [0.9, 'summarize_ephemeral'],
    [0.95, 'compact_session'],
    [1, 'force_trim_persistent'],
  ] as const)('%f reaches %s', (utilization, rung) => {
    expect(ladderRung(utilization)).toBe(rung);
  });

  it('recommends every reached rung plus layers over budget', () => {
    const state = createBudget(200_000, agentic, [block('e', 'ephemeral', 100_000), block('s', 'session', 30_000)]);
    const usage = computeUsage(state);
    expect(usage.utilization).toBeCloseTo(0.8125);
    expect(recommendActions(usage)).toEqual(['drop_stale_ephemeral', 'summarize_ephemeral']);
  });

  it('applies actions in ladder order and reports what each touched', () => {
    let state = createBudget(200_000, agentic, [block('stale', 'ephemeral', 50_000), block('fresh', 'ephemeral', 60_000), block('s', 'session', 70_000), block('p1', 'persistent', 20_000), { ...block('p2', 'persistent', 20_000), priority: 10 }]);
    state = endTurn({ ...state, turn: 11 }, ['fresh']);
    const result = applyActions(state, ['force_trim_persistent', 'compact_session', 'summarize_ephemeral', 'drop_stale_ephemeral']);
    expect(result.affected.drop_stale_ephemeral).toEqual(['stale']);
    expect(result.affected.summarize_ephemeral).toEqual([]);
    expect(result.affected.compact_session).toEqual(['s']);
    expect(result.affected.force_trim_persistent).toEqual(['p2']);
    const usage = computeUsage(result.state);
    expect(usage.layers.session.used).toBe(56_000);
    expect(result.freed).toBe(50_000 + 14_000 + 20_000);
    // A compacted block is not summarised twice.
    expect(applyActions(result.state, ['compact_session']).affected.compact_session).toEqual([]);
  });
});
