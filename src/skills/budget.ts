/**
 * Skills against the context budget (pure). Everything a session carries in every request that the project controls
 * sits in the persistent layer: the always-loaded context files (`syt analyze` counts the same ones), the skill
 * listing (one line per skill), and each skill body loaded so far (it stays for the session). `syt skills` shows what
 * each skill costs there; the Skill-tool hook applies the tiered overage response to a load.
 */
import { computeUsage, createBudget, overageLevel } from '../budget/engine.ts';
import { overageResponse, type OverageResponse } from '../budget/ladder.ts';
import type { BudgetProfile, BudgetState, ContextBlock, Layer, LayerUsage, OverageLevel } from '../budget/types.ts';
import { loadSkill, percentOver } from './loader.ts';

/** An always-loaded context file (CLAUDE.md, its imports, MCP schemas) and its tokens. */
export interface AlwaysLoaded {
  readonly path: string;
  readonly tokens: number;
  /** Can `syt compact` work on it (a Markdown context file, not an MCP schema)? */
  readonly compactable: boolean;
}

export interface CostedSkill {
  readonly name: string;
  readonly source: string;
  /** Its listing line, in every request. */
  readonly listedTokens: number;
  /** What calling it adds to the conversation. */
  readonly bodyTokens: number;
}

export interface SkillsBudgetInput {
  readonly always: readonly AlwaysLoaded[];
  readonly skills: readonly CostedSkill[];
  /** Skills already loaded in this session (their bodies are in the context). */
  readonly loaded: readonly string[];
  readonly profile: BudgetProfile;
  readonly contextWindow: number;
}

/** The skill listing's header line(s) the client adds once, counted with the listing. */
export const LISTING_HEADER = 'The following skills are available for use with the Skill tool:\n\n';

export function listingTokens(skills: readonly CostedSkill[], headerTokens: number): number {
  return skills.length === 0 ? 0 : headerTokens + skills.reduce((sum, s) => sum + s.listedTokens, 0);
}

/** The session's persistent layer: files, listing, loaded skills (each once). */
export function skillsState(input: SkillsBudgetInput, headerTokens: number): BudgetState {
  const block = (id: string, tokens: number): ContextBlock => ({ id, layer: 'persistent', tokens, source: id, lastReferencedTurn: 0 });
  const byName = new Map(input.skills.map((s) => [s.name, s]));
  const loaded = [...new Set(input.loaded)].flatMap((name) => {
    const skill = byName.get(name);
    return skill === undefined ? [] : [block(`skill:${name}`, skill.bodyTokens)];
  });
  return createBudget(input.contextWindow, input.profile, [
    ...input.always.map((file) => block(`file:${file.path}`, file.tokens)),
    ...(input.skills.length === 0 ? [] : [block('skills:listing', listingTokens(input.skills, headerTokens))]),
    ...loaded,
  ]);
}

export interface SkillRow {
  readonly name: string;
  readonly source: string;
  readonly listed_tokens: number;
  readonly body_tokens: number;
  /** The description sits in this layer in every request; the body joins it once loaded. */
  readonly layer: Layer;
  /**
   * What the Skill-tool hook answers when this skill alone is loaded on top of what every request carries: the level
   * and response by the hook's own counts (the fast estimate, when the report is given one).
   */
  readonly if_loaded: OverageLevel;
  readonly response: OverageResponse;
  /** The same level by this report's own counts (o200k for `syt skills`). */
  readonly if_loaded_counted: OverageLevel;
}

export interface SkillsReport {
  readonly profile: string;
  readonly context_window: number;
  readonly layer: LayerUsage;
  readonly always_tokens: number;
  readonly listing_tokens: number;
  readonly skills: readonly SkillRow[];
}

/** Counted figures, and optionally the same project costed the way the hook costs it (its decision is what a row shows). */
export function skillsReport(input: SkillsBudgetInput, headerTokens: number, hook: { input: SkillsBudgetInput; headerTokens: number } = { input, headerTokens }): SkillsReport {
  const base = skillsState({ ...input, loaded: [] }, headerTokens);
  const hookBase = skillsState({ ...hook.input, loaded: [] }, hook.headerTokens);
  const levelIn = (state: BudgetState, skills: readonly CostedSkill[], name: string): OverageLevel => {
    const skill = skills.find((s) => s.name === name);
    return skill === undefined ? 'within' : loadSkill(state, name, skill.bodyTokens).level;
  };
  return {
    profile: input.profile.name,
    context_window: input.contextWindow,
    layer: computeUsage(base).layers.persistent,
    always_tokens: input.always.reduce((sum, f) => sum + f.tokens, 0),
    listing_tokens: listingTokens(input.skills, headerTokens),
    skills: input.skills.map((skill) => {
      const level = levelIn(hookBase, hook.input.skills, skill.name);
      return {
        name: skill.name,
        source: skill.source,
        listed_tokens: skill.listedTokens,
        body_tokens: skill.bodyTokens,
        layer: 'persistent',
        if_loaded: level,
        response: overageResponse(level),
        if_loaded_counted: loadSkill(base, skill.name, skill.bodyTokens).level,
      };
    }),
  };
}

export interface SkillGate {
  readonly response: OverageResponse;
  readonly level: OverageLevel;
  readonly layer: LayerUsage;
  /** The note (response `note`) or the refusal's reason (`refuse`); empty for `pass`. */
  readonly text: string;
}

const n = (value: number): string => value.toLocaleString('en-US');

/**
 * The tiered response to the model calling skill `name`. `approx` marks figures from the fast estimate ("~"). A skill
 * the listing does not know, or one already loaded, passes: the client answers those itself.
 */
export function gateSkill(input: SkillsBudgetInput, name: string, headerTokens: number, approx: boolean): SkillGate {
  const state = skillsState(input, headerTokens);
  const skill = input.skills.find((s) => s.name === name);
  const now = computeUsage(state).layers.persistent;
  if (skill === undefined || input.loaded.includes(name)) return { response: 'pass', level: now.level, layer: now, text: '' };
  const outcome = loadSkill(state, name, skill.bodyTokens);
  const response = overageResponse(outcome.level);
  if (response === 'pass') return { response, level: outcome.level, layer: outcome.layer, text: '' };
  const t = (value: number): string => `${approx ? '~' : ''}${n(value)}`;
  const layer = outcome.layer;
  const budget = `the persistent layer of the context budget (${n(layer.budget)} tokens: ${input.profile.name} profile, ${n(input.contextWindow)}-token window)`;
  const loadedNow = describeLoaded(input, state, t);
  const first = compactFirst(input, outcome.layer, t);
  if (response === 'note') {
    return {
      response,
      level: outcome.level,
      layer,
      text: `[syt] Skill ${name} (${t(skill.bodyTokens)} tokens) puts ${budget} at ${t(layer.used)} tokens, ${percentOver(layer)}% over (loads are refused above 20%). In it: ${loadedNow}.${outcome.level === 'compact' ? ` Compact before loading more: ${first}.` : ''}`,
    };
  }
  return {
    response,
    level: outcome.level,
    layer,
    text: `syt: skill ${name} was not loaded: its ${t(skill.bodyTokens)} tokens would put ${budget} at ${t(layer.used)} tokens, ${percentOver(layer)}% over (loads are refused above 20%). Loaded now: ${loadedNow}. Compact first: ${first}; then call the skill again.`,
  };
}

function describeLoaded(input: SkillsBudgetInput, state: BudgetState, t: (value: number) => string): string {
  const files = [...input.always].sort((a, b) => b.tokens - a.tokens).map((f) => `${f.path} ${t(f.tokens)}`);
  const listed = state.blocks.find((b) => b.id === 'skills:listing')?.tokens ?? 0;
  const listing = input.skills.length === 0 ? [] : [`the skill listing ${t(listed)} (${input.skills.length} skill${input.skills.length === 1 ? '' : 's'})`];
  const skills = state.blocks.filter((b) => b.id.startsWith('skill:')).sort((a, b) => b.tokens - a.tokens).map((b) => `skill ${b.id.slice('skill:'.length)} ${t(b.tokens)}`);
  const parts = [...files, ...listing, ...skills];
  return parts.length === 0 ? 'nothing else' : parts.join(', ');
}

/**
 * The largest compactable file first. When even folding every compactable file away would leave the load refused,
 * saying "compact CLAUDE.md" would send the model on a useless errand: name what can make room instead.
 */
function compactFirst(input: SkillsBudgetInput, layer: LayerUsage, t: (value: number) => string): string {
  const compactable = [...input.always].filter((f) => f.compactable).sort((a, b) => b.tokens - a.tokens);
  const fresh = input.loaded.length > 0 ? 'skills loaded earlier stay until a new session (/clear)' : '';
  const rest = layer.used - compactable.reduce((sum, f) => sum + f.tokens, 0);
  if (overageResponse(overageLevel(rest, layer.budget)) === 'refuse') {
    const why = compactable.length === 0 ? 'nothing loaded here is compactable' : `even without ${compactable.map((f) => f.path).join(', ')} the layer would hold ${t(rest)} tokens`;
    return `${why}: start a new session (/clear) without the skills loaded so far, or give the budget more room (budget.context_window or budget.profile in the syt config)`;
  }
  const file = compactable[0]!;
  return `${file.path} (\`syt compact ${file.path} --dry-run\` shows what folds)${fresh === '' ? '' : `; ${fresh}`}`;
}
