/**
 * The budget engine: pure functions over an immutable BudgetState. Nothing here mutates its input; every change
 * returns a new state, so callers can keep the old one for diffs and undo.
 */
import type { BudgetProfile, BudgetState, BudgetUsage, ContextBlock, Layer, LayerUsage, OverageLevel } from './types.ts';
import { LAYERS } from './types.ts';

/** Under 5% over budget: warn only. */
export const WARN_OVER = 0.05;
/** 5-20% over: compact automatically; above: reject new content. */
export const COMPACT_OVER = 0.2;

export function createBudget(contextWindow: number, profile: BudgetProfile, blocks: readonly ContextBlock[] = []): BudgetState {
  return { contextWindow, profile, turn: 0, blocks };
}

/** Per-layer budgets: the output reserve first, then persistent and session shares of what is left, ephemeral the rest. */
export function layerBudgets(contextWindow: number, profile: BudgetProfile): { outputReserve: number; available: number } & Record<Layer, number> {
  const outputReserve = Math.floor(contextWindow * profile.outputReserve);
  const available = contextWindow - outputReserve;
  const persistent = Math.floor(available * profile.persistent);
  const session = Math.floor(available * profile.session);
  return { outputReserve, available, persistent, session, ephemeral: available - persistent - session };
}

/** How far over its budget a layer is, as one of the four tiers. A zero budget rejects any content. */
export function overageLevel(used: number, budget: number): OverageLevel {
  if (budget <= 0) return used > 0 ? 'reject' : 'within';
  const over = (used - budget) / budget;
  if (over <= 0) return 'within';
  if (over < WARN_OVER) return 'warn';
  if (over < COMPACT_OVER) return 'compact';
  return 'reject';
}

export function computeUsage(state: BudgetState): BudgetUsage {
  const budgets = layerBudgets(state.contextWindow, state.profile);
  const usedBy = (layer: Layer): number => state.blocks.reduce((sum, b) => (b.layer === layer ? sum + b.tokens : sum), 0);
  const entries = LAYERS.map((layer): [Layer, LayerUsage] => {
    const used = usedBy(layer);
    return [layer, { layer, used, budget: budgets[layer], level: overageLevel(used, budgets[layer]) }];
  });
  const layers = Object.fromEntries(entries) as Record<Layer, LayerUsage>;
  const used = entries.reduce((sum, [, u]) => sum + u.used, 0);
  return {
    contextWindow: state.contextWindow,
    outputReserve: budgets.outputReserve,
    available: budgets.available,
    used,
    utilization: budgets.available === 0 ? 0 : used / budgets.available,
    layers,
  };
}

export function removeBlocks(state: BudgetState, ids: Iterable<string>): BudgetState {
  const doomed = new Set(ids);
  return { ...state, blocks: state.blocks.filter((b) => !doomed.has(b.id)) };
}

/** Closes a turn: the blocks referenced in it are stamped with its number, then the turn counter advances. */
export function endTurn(state: BudgetState, referencedIds: Iterable<string> = []): BudgetState {
  const referenced = new Set(referencedIds);
  const blocks = state.blocks.map((b) => (referenced.has(b.id) ? { ...b, lastReferencedTurn: state.turn } : b));
  return { ...state, turn: state.turn + 1, blocks };
}

/** Ephemeral blocks not referenced for more than `maxAge` turns. */
export function staleBlocks(state: BudgetState, maxAge: number): ContextBlock[] {
  return state.blocks.filter((b) => b.layer === 'ephemeral' && state.turn - b.lastReferencedTurn > maxAge);
}
