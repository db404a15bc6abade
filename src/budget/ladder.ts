/**
 * The escalating compaction ladder: which actions a usage calls for, and applying them to a state (pure).
 * Rungs at 80 / 90 / 95 / 100% of the available window; a layer over its own budget adds its rung regardless.
 */
import { computeUsage, layerBudgets, removeBlocks, staleBlocks } from './engine.ts';
import { LADDER, type BudgetState, type BudgetUsage, type CompactAction, type ContextBlock, type Layer, type OverageLevel } from './types.ts';

export const LADDER_THRESHOLDS = {
  drop_stale_ephemeral: 0.8,
  summarize_ephemeral: 0.9,
  compact_session: 0.95,
  force_trim_persistent: 1,
} as const satisfies Record<CompactAction, number>;

/** Turns without a reference after which an ephemeral block is stale. */
export const DEFAULT_STALE_AFTER_TURNS = 10;

/** The rung a utilization has reached: the mildest action still needed, or null below 80%. */
export function ladderRung(utilization: number): CompactAction | null {
  let rung: CompactAction | null = null;
  for (const action of LADDER) if (utilization >= LADDER_THRESHOLDS[action]) rung = action;
  return rung;
}

/** Actions for a usage, mildest first: every rung reached, plus each layer that is 5% or more over its budget. */
export function recommendActions(usage: BudgetUsage): CompactAction[] {
  const wanted = new Set<CompactAction>(LADDER.filter((action) => usage.utilization >= LADDER_THRESHOLDS[action]));
  const over = (layer: Layer): boolean => usage.layers[layer].level === 'compact' || usage.layers[layer].level === 'reject';
  if (over('ephemeral')) wanted.add('summarize_ephemeral');
  if (over('session')) wanted.add('compact_session');
  if (usage.layers.persistent.level === 'reject') wanted.add('force_trim_persistent');
  return LADDER.filter((action) => wanted.has(action));
}

export interface ApplyOptions {
  readonly staleAfterTurns?: number;
  /** Shrinks a block to at most `targetTokens`; default: the block keeps its id and is counted at the target. */
  readonly summarize?: (block: ContextBlock, targetTokens: number) => ContextBlock;
}

export interface ApplyResult {
  readonly state: BudgetState;
  /** Ids each action touched; an action that touched nothing maps to an empty list. */
  readonly affected: Readonly<Partial<Record<CompactAction, readonly string[]>>>;
  /** Tokens freed by all actions together. */
  readonly freed: number;
}

/** Applies actions in ladder order. */
export function applyActions(state: BudgetState, actions: readonly CompactAction[], options: ApplyOptions = {}): ApplyResult {
  const before = computeUsage(state).used;
  let current = state;
  const affected: Partial<Record<CompactAction, readonly string[]>> = {};
  for (const action of LADDER.filter((a) => actions.includes(a))) {
    const { state: next, ids } = applyOne(current, action, options);
    affected[action] = ids;
    current = next;
  }
  return { state: current, affected, freed: before - computeUsage(current).used };
}

function applyOne(state: BudgetState, action: CompactAction, options: ApplyOptions): { state: BudgetState; ids: string[] } {
  switch (action) {
    case 'drop_stale_ephemeral': {
      const ids = staleBlocks(state, options.staleAfterTurns ?? DEFAULT_STALE_AFTER_TURNS).map((b) => b.id);
      return { state: removeBlocks(state, ids), ids };
    }
    case 'summarize_ephemeral':
      return summarizeLayer(state, 'ephemeral', options);
    case 'compact_session':
      return summarizeLayer(state, 'session', options);
    case 'force_trim_persistent':
      return trimPersistent(state);
  }
}

/** Shrinks every block of a layer above its equal share of the layer budget to that share (once per block). */
function summarizeLayer(state: BudgetState, layer: Layer, options: ApplyOptions): { state: BudgetState; ids: string[] } {
  const inLayer = state.blocks.filter((b) => b.layer === layer);
  if (inLayer.length === 0) return { state, ids: [] };
  const target = Math.floor(layerBudgets(state.contextWindow, state.profile)[layer] / inLayer.length);
  const shrink = options.summarize ?? ((block: ContextBlock, tokens: number) => ({ ...block, tokens }));
  const ids: string[] = [];
  const blocks = state.blocks.map((b) => {
    if (b.layer !== layer || b.compacted === true || b.tokens <= target) return b;
    ids.push(b.id);
    const shrunk = shrink(b, target);
    return { ...shrunk, tokens: Math.min(shrunk.tokens, b.tokens), compacted: true };
  });
  return { state: { ...state, blocks }, ids };
}

/** Last resort: removes persistent blocks, lowest priority first, until the layer fits its budget. */
function trimPersistent(state: BudgetState): { state: BudgetState; ids: string[] } {
  const order = state.blocks
    .filter((b) => b.layer === 'persistent')
    .sort((a, b) => (a.priority ?? 50) - (b.priority ?? 50));
  let current = state;
  const ids: string[] = [];
  for (const block of order) {
    const usage = computeUsage(current).layers.persistent;
    if (usage.used <= usage.budget) break;
    current = removeBlocks(current, [block.id]);
    ids.push(block.id);
  }
  return { state: current, ids };
}

/**
 * The tiered response to new content by the level its layer would reach (the seed's tiered overage): within budget
 * it passes; up to 20% over it passes with a note of the budget (over 5%, the note asks for compaction); above 20%
 * it is refused.
 */
export type OverageResponse = 'pass' | 'note' | 'refuse';

export function overageResponse(level: OverageLevel): OverageResponse {
  if (level === 'within') return 'pass';
  return level === 'reject' ? 'refuse' : 'note';
}
