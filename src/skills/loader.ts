/**
 * Budget-aware skill loading (pure): a skill is a persistent-layer block; a load that would put the layer more than
 * 20% over its budget is refused with the figures that explain why. Unloading frees the block.
 */
import { addBlock, computeUsage, removeBlocks } from '../budget/engine.ts';
import type { BudgetState, OverageLevel } from '../budget/types.ts';

export interface SkillLoad {
  readonly state: BudgetState;
  readonly loaded: boolean;
  readonly level: OverageLevel;
  /** One line for the user or the agent: what happened and, for a refusal, by how much it would overflow. */
  readonly message: string;
}

const skillId = (name: string): string => `skill:${name}`;

export function loadSkill(state: BudgetState, name: string, tokens: number): SkillLoad {
  if (state.blocks.some((b) => b.id === skillId(name))) {
    return { state, loaded: true, level: computeUsage(state).layers.persistent.level, message: `skill ${name} is already loaded` };
  }
  const outcome = addBlock(state, { id: skillId(name), layer: 'persistent', tokens, source: skillId(name) });
  const layer = computeUsage(outcome.added ? outcome.state : { ...state, blocks: [...state.blocks, { id: skillId(name), layer: 'persistent', tokens, source: skillId(name), lastReferencedTurn: state.turn }] }).layers.persistent;
  if (!outcome.added) {
    const over = Math.round(((layer.used - layer.budget) / Math.max(layer.budget, 1)) * 100);
    return {
      state,
      loaded: false,
      level: 'reject',
      message: `refused to load skill ${name} (${tokens} tokens): the persistent layer would hold ${layer.used} of ${layer.budget} tokens, ${over}% over budget (the limit is 20%); unload a skill or compact first`,
    };
  }
  const note = outcome.level === 'within' ? '' : outcome.level === 'warn' ? ' (persistent layer slightly over budget)' : ' (persistent layer over budget: compaction advised)';
  return { state: outcome.state, loaded: true, level: outcome.level, message: `loaded skill ${name} (${tokens} tokens)${note}` };
}

export function unloadSkill(state: BudgetState, name: string): { state: BudgetState; unloaded: boolean; freed: number } {
  const block = state.blocks.find((b) => b.id === skillId(name));
  if (block === undefined) return { state, unloaded: false, freed: 0 };
  return { state: removeBlocks(state, [block.id]), unloaded: true, freed: block.tokens };
}

export function loadedSkills(state: BudgetState): string[] {
  return state.blocks.filter((b) => b.id.startsWith('skill:')).map((b) => b.id.slice('skill:'.length));
}
