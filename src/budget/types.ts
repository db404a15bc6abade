/** The three context layers of the budget model; the output reserve is carved out of the window before them. */
export type Layer = 'persistent' | 'session' | 'ephemeral';
export const LAYERS = ['persistent', 'session', 'ephemeral'] as const satisfies readonly Layer[];

/** Shares of a budget profile. Layer shares apply to the window left after the output reserve (as the seed's code does). */
export interface BudgetProfile {
  readonly name: string;
  readonly persistent: number;
  readonly session: number;
  readonly outputReserve: number;
}

/** One piece of context: a file, a message, a tool result, a skill. */
export interface ContextBlock {
  readonly id: string;
  readonly layer: Layer;
  readonly tokens: number;
  /** What it is, for reports: `file:CLAUDE.md`, `tool:Bash`, `skill:debugging`. */
  readonly source: string;
  /** The turn in which it was last referenced (added counts as referenced). */
  readonly lastReferencedTurn: number;
  /** True once a summarise action has shrunk it: it is not summarised twice. */
  readonly compacted?: boolean;
  /** Lower is trimmed first by the last-resort persistent trim; default 50. */
  readonly priority?: number;
}

/** Immutable budget state: every operation returns a new one. */
export interface BudgetState {
  readonly contextWindow: number;
  readonly profile: BudgetProfile;
  /** Number of completed turns. */
  readonly turn: number;
  readonly blocks: readonly ContextBlock[];
}

export interface LayerUsage {
  readonly layer: Layer;
  readonly used: number;
  readonly budget: number;
  readonly level: OverageLevel;
}

export interface BudgetUsage {
  readonly contextWindow: number;
  readonly outputReserve: number;
  /** Window minus output reserve: what the three layers share. */
  readonly available: number;
  readonly used: number;
  /** used / available. */
  readonly utilization: number;
  readonly layers: Readonly<Record<Layer, LayerUsage>>;
}

/** Tiered response to a layer over its budget: warn under 5% over, auto-compact 5-20% over, reject above 20%. */
export type OverageLevel = 'within' | 'warn' | 'compact' | 'reject';

/** The escalating ladder, mildest first. */
export type CompactAction = 'drop_stale_ephemeral' | 'summarize_ephemeral' | 'compact_session' | 'force_trim_persistent';
export const LADDER = [
  'drop_stale_ephemeral',
  'summarize_ephemeral',
  'compact_session',
  'force_trim_persistent',
] as const satisfies readonly CompactAction[];
