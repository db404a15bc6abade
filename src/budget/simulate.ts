/**
 * Runs the budget manager over a recorded session: what the context would have held turn by turn if the ladder and
 * staleness eviction had been applied. Used by the benchmark and by `analyze --log`; pure.
 */
import { computeUsage, createBudget, endTurn } from './engine.ts';
import { applyActions, recommendActions } from './ladder.ts';
import type { BudgetProfile, BudgetState, CompactAction, Layer } from './types.ts';

/** One piece of context entering the session in a given turn. */
export interface SessionItem {
  readonly turn: number;
  readonly layer: Layer;
  readonly tokens: number;
  readonly source: string;
}

export interface ManagerOptions {
  readonly contextWindow: number;
  readonly profile: BudgetProfile;
  readonly staleAfterTurns: number;
  /** Drop stale ephemeral blocks after every N-th turn as well as at the thresholds; 0 turns it off. */
  readonly compactEveryTurns: number;
}

export interface TurnSnapshot {
  readonly turn: number;
  /** Everything sent so far, with nothing ever removed. */
  readonly baselineTokens: number;
  readonly managedTokens: number;
  readonly utilization: number;
  /** Actions that removed or shrank something in this turn. */
  readonly actions: readonly CompactAction[];
}

export interface SimulationResult {
  readonly snapshots: readonly TurnSnapshot[];
  readonly baselineTotal: number;
  readonly managedTotal: number;
  /** 1 - managed / baseline, over the summed per-turn context sizes. */
  readonly savedShare: number;
  readonly compactionEvents: number;
  readonly actionsByType: Readonly<Partial<Record<CompactAction, number>>>;
  readonly peakUtilization: number;
}

export function simulateSession(items: readonly SessionItem[], options: ManagerOptions): SimulationResult {
  let state: BudgetState = createBudget(options.contextWindow, options.profile);
  const snapshots: TurnSnapshot[] = [];
  const actionsByType: Partial<Record<CompactAction, number>> = {};
  let baseline = 0;
  let counter = 0;
  for (const group of groupByTurn(items)) {
    const ids: string[] = [];
    const added = group.map((item) => {
      const id = `${item.source}#${counter++}`;
      ids.push(id);
      baseline += item.tokens;
      return { id, layer: item.layer, tokens: item.tokens, source: item.source, lastReferencedTurn: state.turn };
    });
    // A recorded session cannot refuse content that was really sent, so blocks are appended without the reject check.
    state = endTurn({ ...state, blocks: [...state.blocks, ...added] }, ids);
    const wanted = new Set(recommendActions(computeUsage(state)));
    if (options.compactEveryTurns > 0 && state.turn % options.compactEveryTurns === 0) wanted.add('drop_stale_ephemeral');
    const applied = applyActions(state, [...wanted], { staleAfterTurns: options.staleAfterTurns });
    state = applied.state;
    const acted = (Object.entries(applied.affected) as [CompactAction, readonly string[]][]).filter(([, touched]) => touched.length > 0).map(([action]) => action);
    for (const action of acted) actionsByType[action] = (actionsByType[action] ?? 0) + 1;
    const usage = computeUsage(state);
    snapshots.push({ turn: group[0]?.turn ?? state.turn, baselineTokens: baseline, managedTokens: usage.used, utilization: usage.utilization, actions: acted });
  }
  const baselineTotal = snapshots.reduce((sum, s) => sum + s.baselineTokens, 0);
  const managedTotal = snapshots.reduce((sum, s) => sum + s.managedTokens, 0);
  return {
    snapshots,
    baselineTotal,
    managedTotal,
    savedShare: baselineTotal === 0 ? 0 : 1 - managedTotal / baselineTotal,
    compactionEvents: snapshots.filter((s) => s.actions.length > 0).length,
    actionsByType,
    peakUtilization: snapshots.reduce((max, s) => Math.max(max, s.utilization), 0),
  };
}

/** Consecutive items with the same turn number form one turn. */
function groupByTurn(items: readonly SessionItem[]): SessionItem[][] {
  const groups: SessionItem[][] = [];
  for (const item of items) {
    const last = groups.at(-1);
    if (last !== undefined && last[0]?.turn === item.turn) last.push(item);
    else groups.push([item]);
  }
  return groups;
}
