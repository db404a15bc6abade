/** `syt cost history`'s aggregation: excluded sessions add nothing, every simulator policy gets a total, errors travel. */
import { describe, expect, it } from 'vitest';
import { historyReport, historyTotals, hookReplayFacts, hooksNet, hookSavingsOf, type HistorySession } from '../../../src/cost/history.ts';
import { POLICIES, type PolicyName, type PolicySaving } from '../../../src/cost/simulate-report.ts';

function session(file: string, over: { error: number; recorded: number; reproduced: number; simulated?: number; hindsight?: number; started?: string | null; savings?: Partial<Record<PolicyName, number | null>>; models?: string[] }): HistorySession {
  const excluded = over.error > 0.05 ? `reproduced only within ${over.error}` : null;
  const savings = Object.fromEntries(
    POLICIES.map((name): [PolicyName, PolicySaving | null] => {
      const given = over.savings?.[name];
      const dollars = excluded !== null ? null : given === undefined ? 0 : given;
      return [name, dollars === null ? null : { dollars, fraction: dollars / over.reproduced }];
    }),
  ) as Record<PolicyName, PolicySaving | null>;
  return {
    file,
    requests: 3,
    validation_error: over.error,
    read_error: over.error,
    write_error: 0,
    recorded_cost: over.recorded,
    reproduced_cost: over.reproduced,
    simulated_cost: over.simulated ?? over.reproduced,
    hindsight_cost: over.hindsight ?? over.simulated ?? over.reproduced,
    stable_prefix: {},
    write_1h_share: 0,
    pauses_over_5m: 0,
    unpriced_requests: 0,
    excluded,
    mismatches: [],
    savings,
    switched_on: [],
    hindsight_switched_on: [],
    keep_warm: { gaps: 0, bridged: 0, pings: 0, dollars: 0, tail_dollars: 0, hindsight_dollars: 0 },
    path: `/p/${file}.jsonl`,
    project: 'p',
    started: over.started === undefined ? '2026-01-01T00:00:00.000Z' : over.started,
    models: over.models ?? ['claude-sonnet-4-5'],
    malformed_lines: 0,
    hooks_replay: null,
    hooks_error: null,
    fold: { cold_requests: 0, folds: 0, retrieved: 0 },
    tool_tiers: null,
  };
}

const none = { before_since: 0, other_project: 0, over_limit: 0, over_time: 0 };

describe('historyTotals', () => {
  it('sums savings over the reproduced sessions only, and says the largest error among them', () => {
    const a = session('a', { error: 0.01, recorded: 2, reproduced: 2, simulated: 1.5, savings: { hooks: 0.2, ttl_1h_prefix: -0.1 } });
    const b = session('b', { error: 0.03, recorded: 3, reproduced: 3, simulated: 2.9, hindsight: 2.5, savings: { hooks: 0.1, ttl_1h_prefix: 0.3 } });
    const bad = session('bad', { error: 0.4, recorded: 10, reproduced: 6 });
    const t = historyTotals([a, b, bad]);
    expect(t).toMatchObject({ sessions: 3, reproduced: 2, excluded: 1, recorded_cost: 15, recorded_cost_reproduced: 5, reproduced_cost: 5, validation_error: 0.03 });
    expect(t.validation_error_weighted).toBeCloseTo((0.01 * 2 + 0.03 * 3) / 5, 12);
    const hooks = t.policies.find((p) => p.policy === 'hooks');
    expect(hooks).toMatchObject({ sessions_priced: 2, sessions_paying: 2, validation_error: 0.03 });
    expect(hooks?.dollars).toBeCloseTo(0.3, 12);
    expect(hooks?.fraction).toBeCloseTo(0.3 / 5, 12);
    // Negative savings stay negative: the sum is 0.2, one session paying.
    const ttl = t.policies.find((p) => p.policy === 'ttl_1h_prefix');
    expect(ttl?.dollars).toBeCloseTo(0.2, 12);
    expect(ttl?.sessions_paying).toBe(1);
    // The headline is the online result; the hindsight bound is apart and never summed into it.
    expect(t.online.dollars).toBeCloseTo(0.6, 12);
    expect(t.online.fraction).toBeCloseTo(0.12, 12);
    expect(t.hindsightBound.dollars).toBeCloseTo(1.0, 12);
  });

  it('has one total per policy the simulator knows, in its order', () => {
    expect(historyTotals([]).policies.map((p) => p.policy)).toEqual([...POLICIES]);
  });

  it('a policy not priced in a session (the hooks when the replay failed) is left out of its sum and its base', () => {
    const a = session('a', { error: 0, recorded: 1, reproduced: 1, savings: { hooks: 0.5 } });
    const b = session('b', { error: 0, recorded: 4, reproduced: 4, savings: { hooks: null } });
    const hooks = historyTotals([a, b]).policies.find((p) => p.policy === 'hooks');
    expect(hooks).toMatchObject({ sessions_priced: 1, dollars: 0.5, fraction: 0.5 });
  });

  it('with nothing reproduced, every share is 0, not NaN', () => {
    const t = historyTotals([session('bad', { error: 0.5, recorded: 1, reproduced: 1 })]);
    expect(t.validation_error_weighted).toBe(0);
    expect(t.online.fraction).toBe(0);
    expect(t.hindsightBound.fraction).toBe(0);
    expect(t.policies.every((p) => p.fraction === 0 && p.dollars === 0 && p.sessions_priced === 0)).toBe(true);
  });
});

describe('historyReport', () => {
  it('orders sessions by start (unknown last), counts skipped files by reason, names the price rows used', () => {
    const report = historyReport(
      [
        session('late', { error: 0, recorded: 1, reproduced: 1, started: '2026-03-01T00:00:00.000Z', models: ['claude-haiku-4-5-20251001'] }),
        session('unknown', { error: 0, recorded: 1, reproduced: 1, started: null }),
        session('early', { error: 0, recorded: 1, reproduced: 1, started: '2026-02-01T00:00:00.000Z' }),
      ],
      [
        { path: '/x', reason: 'not a transcript', detail: 'empty' },
        { path: '/y', reason: 'not a transcript', detail: 'empty' },
        { path: '/z', reason: 'too large', detail: 'big' },
      ],
      { ...none, over_limit: 2 },
    );
    expect(report.sessions.map((s) => s.file)).toEqual(['early', 'late', 'unknown']);
    expect(report.skipped_by_reason).toEqual({ 'not a transcript': 2, 'too large': 1 });
    expect(report.not_taken.over_limit).toBe(2);
    expect(report.prices.map((p) => [p.model, p.taken])).toEqual([
      ['claude-haiku-4-5', '2025-10-15'],
      ['claude-sonnet-4-5', '2025-09-29'],
    ]);
    expect(report.bound).toBe(0.05);
  });
});

describe('the session replay, as the simulator prices it', () => {
  const calls = [
    { toolUseId: 't1', before: 100, after: 40, retrievalFailures: 0, viewKind: 'git-log', evidence: ['src/a.ts'], turnTokens: 2600, turnCost: 0.01 },
    { toolUseId: 't2', before: 10, after: 12, retrievalFailures: 1 },
  ];
  it('tokens saved per tool result, negative when the result grew', () => {
    expect([...hookSavingsOf(calls)]).toEqual([
      ['t1', 60],
      ['t2', -2],
    ]);
  });
  it('sums the facts, retrieval failures included', () => {
    expect(hookReplayFacts(calls)).toEqual({
      tool_results: 2,
      tokens_before: 110,
      tokens_after: 52,
      retrieval_failures: 1,
      shortened: 1,
      with_evidence: 1,
      turn_tokens: 2600,
      turn_dollars: 0.01,
    });
  });

  it('prices a view with evidence as a retrieval turn: the hooks net of turns, negative when they cost more', () => {
    const session = (dollars: number, turnDollars: number) =>
      ({ excluded: null, savings: { hooks: { dollars } }, hooks_replay: { shortened: 3, with_evidence: 1, turn_dollars: turnDollars } }) as unknown as Parameters<typeof hooksNet>[0][number];
    const both = hooksNet([session(0.05, 0.02), session(0.01, 0.03)]);
    expect(both).toMatchObject({ shortened: 6, with_evidence: 2 });
    expect(both.gross_dollars).toBeCloseTo(0.06);
    expect(both.turn_dollars).toBeCloseTo(0.05);
    expect(hooksNet([session(0.01, 0.03)]).net_dollars).toBeCloseTo(-0.02);
  });
});
