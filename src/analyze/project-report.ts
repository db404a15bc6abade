/**
 * The context budget of a project's context files (pure): tokens per item, per-layer usage against the profile and
 * window, the largest items and advice that names files and figures.
 */
import { computeUsage, createBudget } from '../budget/engine.ts';
import { ladderRung } from '../budget/ladder.ts';
import type { BudgetProfile, Layer, OverageLevel } from '../budget/types.ts';
import { LAYERS } from '../budget/types.ts';
import { planCompaction } from '../compact/fold.ts';
import { MCP_ESTIMATE, type FoundItem } from './project-scan.ts';

export { MCP_ESTIMATE } from './project-scan.ts';
/** A single always-loaded file above this is worth moving behind an import or a skill. */
const LARGE_FILE_TOKENS = 5_000;

export interface ReportItem {
  readonly path: string;
  readonly kind: FoundItem['kind'];
  readonly layer: Layer;
  readonly loaded: FoundItem['loaded'];
  readonly agents: readonly string[];
  readonly tokens: number;
  /** True for MCP schema figures: estimated, not counted. */
  readonly estimated: boolean;
  readonly mcp_server: string | null;
  readonly note: string | null;
  /** Tokens `syt compact` would fold away (finished items, done sections). */
  readonly foldable_tokens: number;
}

export interface ProjectReport {
  readonly dir: string;
  readonly profile: string;
  readonly context_window: number;
  readonly output_reserve: number;
  readonly available: number;
  readonly token_method: 'o200k';
  readonly layers: readonly { layer: Layer; used: number; budget: number; level: OverageLevel }[];
  readonly total_used: number;
  readonly utilization: number;
  readonly on_demand_tokens: number;
  readonly items: readonly ReportItem[];
  readonly advice: readonly string[];
}

export function projectReport(dir: string, found: readonly FoundItem[], count: (text: string) => number, profile: BudgetProfile, contextWindow: number): ProjectReport {
  const items = found.map((item) => reportItem(item, count)).sort((a, b) => b.tokens - a.tokens || a.path.localeCompare(b.path));
  const always = items.filter((i) => i.loaded === 'always');
  const blocks = always.map((i, n) => ({ id: `${i.path}#${n}`, layer: i.layer, tokens: i.tokens, source: i.path, lastReferencedTurn: 0 }));
  const usage = computeUsage(createBudget(contextWindow, profile, blocks));
  return {
    dir,
    profile: profile.name,
    context_window: contextWindow,
    output_reserve: usage.outputReserve,
    available: usage.available,
    token_method: 'o200k',
    layers: LAYERS.map((layer) => ({ layer, used: usage.layers[layer].used, budget: usage.layers[layer].budget, level: usage.layers[layer].level })),
    total_used: usage.used,
    utilization: usage.utilization,
    on_demand_tokens: items.filter((i) => i.loaded === 'on_demand').reduce((sum, i) => sum + i.tokens, 0),
    items,
    advice: advise(items, usage.layers.persistent, usage.utilization),
  };
}

function reportItem(item: FoundItem, count: (text: string) => number): ReportItem {
  const isMcp = item.kind === 'mcp';
  const foldable = item.kind === 'progress' || item.kind === 'instructions' || item.kind === 'import' ? foldableTokens(item.text, count) : 0;
  return {
    path: isMcp ? `${item.path}#${item.mcpServer ?? ''}` : item.path,
    kind: item.kind,
    layer: item.layer,
    loaded: item.loaded,
    agents: item.agents,
    tokens: isMcp ? MCP_ESTIMATE.toolsPerServer * MCP_ESTIMATE.tokensPerTool : count(item.text),
    estimated: isMcp,
    mcp_server: item.mcpServer ?? null,
    note: isMcp ? `estimated: ~${MCP_ESTIMATE.toolsPerServer} tool schemas of ~${MCP_ESTIMATE.tokensPerTool} tokens` : (item.note ?? null),
    foldable_tokens: foldable,
  };
}

function foldableTokens(text: string, count: (text: string) => number): number {
  const plan = planCompaction(text, { finished: true, staleSections: true });
  return plan.folds.length === 0 ? 0 : Math.max(0, count(text) - count(plan.output));
}

/** Whole numbers as every report prints them (14,551). */
const n = (value: number): string => value.toLocaleString('en-US');

function advise(items: readonly ReportItem[], persistent: { used: number; budget: number; level: OverageLevel }, utilization: number): string[] {
  const advice: string[] = [];
  if (items.length === 0) advice.push('No context files found: agents start from their own system prompt only.');
  if (persistent.level !== 'within') {
    advice.push(`The persistent layer holds ${n(persistent.used)} tokens against a budget of ${n(persistent.budget)} (${persistent.level}): move reference material out of always-loaded files into skills or on-demand docs.`);
  }
  for (const item of items.filter((i) => i.loaded === 'always' && !i.estimated && i.tokens > LARGE_FILE_TOKENS)) {
    advice.push(`${item.path} is ${n(item.tokens)} tokens and is sent with every request: split rarely needed sections into files the agent reads on demand.`);
  }
  for (const item of items.filter((i) => i.foldable_tokens > 0)) {
    advice.push(`${item.path}: ${n(item.foldable_tokens)} tokens are finished items or done sections; \`syt compact ${item.path}\` folds them recoverably.`);
  }
  const mcp = items.filter((i) => i.kind === 'mcp');
  if (mcp.length > 0) {
    const tokens = mcp.reduce((sum, i) => sum + i.tokens, 0);
    advice.push(`${mcp.length} MCP server${mcp.length === 1 ? '' : 's'} (${mcp.map((i) => i.mcp_server).join(', ')}) add an estimated ${n(tokens)} tokens of tool schemas to every request: disable the ones this project does not use.`);
  }
  for (const item of items.filter((i) => i.note?.endsWith('but missing') === true)) advice.push(`${item.path} is ${item.note ?? ''}: fix or remove the @import.`);
  const rung = ladderRung(utilization);
  if (rung !== null) advice.push(`Context files alone reach ${(utilization * 100).toFixed(0)}% of the available window: the ladder calls for ${rung.replaceAll('_', ' ')}.`);
  return advice;
}
