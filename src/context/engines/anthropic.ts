/**
 * Anthropic cache planning: at most 4 `cache_control` breakpoints. Candidates are the end of the tools, the end of
 * the PIN system, the end of the ref-pool, the newest message, and mid anchors every 19 message blocks (the cache
 * looks back only 20 blocks from a breakpoint for an earlier write). Candidates whose prefix is below the model's
 * minimum cacheable length are dropped (they would never be written); the rest are trimmed by priority.
 */
import type { Slot } from '../layout.ts';

/**
 * Minimum cacheable prompt length in tokens by model id prefix (longest prefix wins). As of 2026-11-30, from
 * Anthropic's prompt-caching documentation and ANCHORS.md (512-4,096 by model). Re-check when models change.
 */
export const ANTHROPIC_MIN_CACHEABLE = {
  asOf: '2026-11-30',
  byPrefix: [
    ['claude-opus-4-5', 4096],
    ['claude-haiku-4-5', 4096],
    ['claude-3-5-haiku', 2048],
    ['claude-3-haiku', 2048],
    ['claude-opus-4', 1024],
    ['claude-sonnet-4', 1024],
    ['claude-3-7-sonnet', 1024],
    ['claude-3-5-sonnet', 1024],
    ['claude-3-opus', 1024],
  ] as ReadonlyArray<readonly [string, number]>,
  /** Models newer than the table (e.g. claude-opus-5-5): the documented floor, so no breakpoint is dropped wrongly. */
  fallback: 512,
} as const;

export function minCacheableTokens(model: string): { tokens: number; known: boolean } {
  const match = [...ANTHROPIC_MIN_CACHEABLE.byPrefix].sort((a, b) => b[0].length - a[0].length).find(([prefix]) => model.startsWith(prefix));
  return match === undefined ? { tokens: ANTHROPIC_MIN_CACHEABLE.fallback, known: false } : { tokens: match[1], known: true };
}

export const MAX_BREAKPOINTS = 4;
/** One less than the 20-block lookback, so consecutive anchors always see each other's writes. */
export const MID_ANCHOR_STRIDE = 19;

export type BreakpointKind = 'newest' | 'system_end' | 'refpool_end' | 'mid' | 'tools_end';

/**
 * Lower is more important. The newest message caches the whole conversation for the next turn; the end of the
 * PIN system caches tools + system (the prefix re-read on every request); the ref-pool end survives message edits;
 * mid anchors (nearest the tail first) keep long turns reachable; the tools end matters only when the system
 * changes, which the system-end breakpoint already covers in the common case.
 */
export const BREAKPOINT_PRIORITY: Readonly<Record<Exclude<BreakpointKind, 'mid'>, number>> = {
  newest: 0,
  system_end: 1,
  refpool_end: 2,
  tools_end: 100,
};
const MID_BASE_PRIORITY = 3;

export interface Breakpoint {
  readonly kind: BreakpointKind;
  readonly key: string;
  readonly priority: number;
  readonly prefixTokens: number;
}

export interface AnthropicPlan {
  readonly breakpoints: Breakpoint[];
  readonly dropped: Array<Breakpoint & { readonly reason: 'below_minimum' | 'over_limit' | 'duplicate' }>;
  readonly minCacheableTokens: number;
  readonly modelKnown: boolean;
}

/** Plans breakpoints over a layout; `limit` lets a caller reserve slots for its own markers. */
export function planAnthropic(slots: readonly Slot[], model: string, limit = MAX_BREAKPOINTS): AnthropicPlan {
  const min = minCacheableTokens(model);
  const prefix: number[] = [];
  slots.reduce((sum, slot, index) => (prefix[index] = sum + slot.tokens), 0);
  const candidates: Breakpoint[] = [];
  const add = (kind: BreakpointKind, index: number, priority: number) => {
    const slot = slots[index];
    if (slot !== undefined) candidates.push({ kind, key: slot.key, priority, prefixTokens: prefix[index] ?? 0 });
  };
  // A breakpoint after a DROP block would hash content that changes every time: use the last cacheable block.
  const lastMarkable = (pred: (slot: Slot) => boolean) => findLastIndex(slots, (slot) => pred(slot) && slot.band !== 'DROP' && slot.markable);
  add('tools_end', lastMarkable((slot) => slot.segment === 'tools'), BREAKPOINT_PRIORITY.tools_end);
  add('system_end', lastMarkable((slot) => slot.segment === 'system' && slot.band === 'PIN'), BREAKPOINT_PRIORITY.system_end);
  add('refpool_end', lastMarkable((slot) => slot.segment === 'refpool'), BREAKPOINT_PRIORITY.refpool_end);
  const messageSlots = slots.map((slot, index) => ({ slot, index })).filter(({ slot }) => slot.segment === 'messages');
  // The newest cacheable message block: trailing DROP blocks (an environment note, a timestamp) stay after it.
  const newest = lastMarkable((slot) => slot.segment === 'messages');
  add('newest', newest, BREAKPOINT_PRIORITY.newest);
  // Anchors sit at fixed positions counted from the first message block, so the same anchor recurs across turns.
  const mids: number[] = [];
  for (let n = MID_ANCHOR_STRIDE - 1; n < messageSlots.length; n += MID_ANCHOR_STRIDE) {
    const entry = messageSlots[n];
    if (entry !== undefined && entry.index < newest && entry.slot.band !== 'DROP' && entry.slot.markable) mids.push(entry.index);
  }
  mids.reverse().forEach((index, rank) => add('mid', index, MID_BASE_PRIORITY + rank));
  return choose(candidates, min.tokens, limit, min.known);
}

function choose(candidates: readonly Breakpoint[], minTokens: number, limit: number, modelKnown: boolean): AnthropicPlan {
  const dropped: AnthropicPlan['dropped'] = [];
  const byPriority = [...candidates].sort((a, b) => a.priority - b.priority || a.key.localeCompare(b.key));
  const kept: Breakpoint[] = [];
  const keys = new Set<string>();
  for (const candidate of byPriority) {
    if (keys.has(candidate.key)) dropped.push({ ...candidate, reason: 'duplicate' });
    else if (candidate.prefixTokens < minTokens) dropped.push({ ...candidate, reason: 'below_minimum' });
    else if (kept.length >= Math.min(limit, MAX_BREAKPOINTS)) dropped.push({ ...candidate, reason: 'over_limit' });
    else {
      kept.push(candidate);
      keys.add(candidate.key);
    }
  }
  return { breakpoints: kept, dropped, minCacheableTokens: minTokens, modelKnown };
}

function findLastIndex<T>(items: readonly T[], pred: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index -= 1) if (pred(items[index]!)) return index;
  return -1;
}
