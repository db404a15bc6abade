/**
 * Budget-aware skill loading (pure), the seed's loader: a skill is a persistent-layer block (once loaded it stays for
 * the session: Claude Code even re-attaches loaded skills after a compaction). A load answers with the level the
 * layer reaches; one that would put it more than 20% over its budget is refused and the state is left as it was.
 */
import { computeUsage } from '../budget/engine.ts';
import { overageResponse } from '../budget/ladder.ts';
import type { BudgetState, LayerUsage, OverageLevel } from '../budget/types.ts';

export interface SkillLoad {
  readonly state: BudgetState;
  readonly loaded: boolean;
  /** The level the persistent layer reaches with the skill in it (`reject`: refused, not loaded). */
  readonly level: OverageLevel;
  /** The persistent layer with the skill counted in, loaded or not. */
  readonly layer: LayerUsage;
  /** One line for the user or the agent: what happened and, for a refusal, by how much it would overflow. */
  readonly message: string;
}

export const skillBlockId = (name: string): string => `skill:${name}`;

/** Percent over budget, rounded; 0 within. */
export function percentOver(layer: LayerUsage): number {
  return layer.budget <= 0 ? (layer.used > 0 ? 100 : 0) : Math.max(0, Math.round(((layer.used - layer.budget) / layer.budget) * 100));
}

export function loadSkill(state: BudgetState, name: string, tokens: number): SkillLoad {
  const id = skillBlockId(name);
  if (state.blocks.some((b) => b.id === id)) {
    const layer = computeUsage(state).layers.persistent;
    return { state, loaded: true, level: layer.level, layer, message: `skill ${name} is already loaded` };
  }
  const next: BudgetState = { ...state, blocks: [...state.blocks, { id, layer: 'persistent', tokens, source: id, lastReferencedTurn: state.turn }] };
  const layer = computeUsage(next).layers.persistent;
  const figures = `the persistent layer ${overageResponse(layer.level) === 'refuse' ? 'would hold' : 'holds'} ${layer.used} of ${layer.budget} tokens`;
  switch (overageResponse(layer.level)) {
    case 'refuse':
      return { state, loaded: false, level: layer.level, layer, message: `refused to load skill ${name} (${tokens} tokens): ${figures}, ${percentOver(layer)}% over budget (the limit is 20%); unload a skill or compact first` };
    case 'note':
      return { state: next, loaded: true, level: layer.level, layer, message: `loaded skill ${name} (${tokens} tokens): ${figures}, ${percentOver(layer)}% over budget${layer.level === 'compact' ? ': compaction advised' : ''}` };
    case 'pass':
      return { state: next, loaded: true, level: layer.level, layer, message: `loaded skill ${name} (${tokens} tokens)` };
  }
}

export function unloadSkill(state: BudgetState, name: string): { state: BudgetState; unloaded: boolean; freed: number } {
  const block = state.blocks.find((b) => b.id === skillBlockId(name));
  if (block === undefined) return { state, unloaded: false, freed: 0 };
  return { state: { ...state, blocks: state.blocks.filter((b) => b !== block) }, unloaded: true, freed: block.tokens };
}

export function loadedSkills(state: BudgetState): string[] {
  return state.blocks.filter((b) => b.id.startsWith('skill:')).map((b) => b.id.slice('skill:'.length));
}
