/**
 * Budget-aware skills for agents built on the SDK, with the seed's API: a registry that scans directories for skills,
 * and a loader whose `load` answers with the overage level the persistent layer reaches (`reject`: refused, nothing
 * loaded), `unload` to free a skill, and a budget summary. Both are thin shells over the pure src/skills/ and
 * src/budget/ functions the CLI and the Claude Code hook use, so the three answer a load the same way.
 */
import { computeUsage, createBudget } from '../budget/engine.ts';
import { BUILTIN_PROFILES, DEFAULT_CONTEXT_WINDOW, resolveProfile } from '../budget/profiles.ts';
import type { BudgetProfile, BudgetState, BudgetUsage, ContextBlock, OverageLevel } from '../budget/types.ts';
import { loadSkill, loadedSkills, unloadSkill } from '../skills/loader.ts';
import { discoverSkills, type Skill } from '../skills/registry.ts';
import { estimateTokens } from '../tokens/estimate.ts';
import { TokenlessError } from './errors.ts';

export type { Skill } from '../skills/registry.ts';

/** Skills found in directories (`<dir>/<name>/SKILL.md` or `<dir>/<name>.md`); the first directory wins a name. */
export class SkillRegistry {
  readonly #dirs: string[] = [];
  #skills: Skill[] = [];

  addScanDir(dir: string): this {
    this.#dirs.push(dir);
    return this;
  }

  /** Reads the directories again; a missing one is skipped. */
  scan(): readonly Skill[] {
    this.#skills = discoverSkills(this.#dirs);
    return this.#skills;
  }

  get(name: string): Skill | undefined {
    return this.#skills.find((skill) => skill.name === name);
  }

  list(): readonly Skill[] {
    return this.#skills;
  }
}

export interface SkillLoaderOptions {
  /** Default 200,000. */
  readonly contextWindow?: number;
  /** A built-in profile name (chat, agentic, rag) or a profile; default agentic. */
  readonly profile?: string | BudgetProfile;
  /** What the context already holds (a system prompt, files); skills are added to the persistent layer beside it. */
  readonly blocks?: readonly ContextBlock[];
}

export class SkillLoader {
  #state: BudgetState;
  #message = '';

  constructor(options: SkillLoaderOptions = {}) {
    const named = options.profile;
    const profile = typeof named === 'string' ? resolveProfile(named) : (named ?? BUILTIN_PROFILES.agentic);
    if (profile === null) throw new TokenlessError('invalid_input', `unknown budget profile ${typeof named === 'string' ? named : ''} (chat, agentic, rag)`);
    const window = options.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
    if (!Number.isInteger(window) || window <= 0) throw new TokenlessError('invalid_input', `contextWindow must be a whole number of tokens above 0, got ${window}`);
    this.#state = createBudget(window, profile, options.blocks ?? []);
  }

  /**
   * Loads a skill unless that would put the persistent layer more than 20% over its budget; answers with the level
   * the layer reaches (`within`, `warn`, `compact`: loaded; `reject`: refused). `tokenCount` defaults to the fast
   * estimate of `content`.
   */
  load(name: string, content: string, tokenCount: number = estimateTokens(content)): OverageLevel {
    const outcome = loadSkill(this.#state, name, tokenCount);
    this.#state = outcome.state;
    this.#message = outcome.message;
    return outcome.level;
  }

  /** Frees a loaded skill; false when it was not loaded. */
  unload(name: string): boolean {
    const outcome = unloadSkill(this.#state, name);
    this.#state = outcome.state;
    this.#message = outcome.unloaded ? `unloaded skill ${name} (${outcome.freed} tokens freed)` : `skill ${name} was not loaded`;
    return outcome.unloaded;
  }

  /** The last load's or unload's one-line explanation (a refusal says by how much it would overflow). */
  get lastMessage(): string {
    return this.#message;
  }

  loaded(): string[] {
    return loadedSkills(this.#state);
  }

  budgetSummary(): BudgetUsage {
    return computeUsage(this.#state);
  }

  /** The immutable budget state, for the engine's other functions (ladder, compaction). */
  get state(): BudgetState {
    return this.#state;
  }
}
