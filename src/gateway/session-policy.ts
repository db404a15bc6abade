/**
 * The gateway's per-session policies, as one pure step per request: given what the gateway remembers of the session
 * (when its previous request came, what was folded, which tools were stubbed) and the time now, the messages and
 * tools to forward, the originals to stash, and the new memory. I/O (the stash, the clock) stays in server.ts.
 *
 * A session is its prefix: the system prompt and first message (breakpoints aside, which Claude Code moves from
 * request to request). The cache is judged expired when more than the request's longest breakpoint TTL has passed
 * since the previous request of the same prefix; only then may new folds (and tool promotions) happen. Between
 * expiries every request gets exactly the same folds and stubs, so its prompt stays a byte-identical extension of
 * the previous one.
 */
import { createHash } from 'node:crypto';
import type { StashEntry } from '../store/stash.ts';
import { elide } from '../reduce/candidate.ts';
import type { ToolDefinition } from '../protocol/schemas.ts';
import { toolsUsedIn } from '../schema/stubs.ts';
import { toolNameOf } from '../schema/tool-shape.ts';
import { applyFolds, foldCandidates, foldMarker, FOLD_DEFAULTS, type FoldOptions } from './fold.ts';
import { applyTiers, CORE_TOOLS, toolDefinitionText, toolsToStub } from './tool-tiers.ts';

export const TTL_5M_MS = 5 * 60_000;
export const TTL_1H_MS = 60 * 60_000;

export interface PolicySwitches {
  /** Fold old large tool results when a request comes after the cache expired. */
  readonly fold: boolean;
  /** Stub the tools a session has not used, decided at its first request. */
  readonly toolTiers: boolean;
  readonly foldOptions?: FoldOptions;
  readonly coreTools?: readonly string[];
}

/**
 * What `tokenless gateway` runs with unless told otherwise: what the simulator shows pays on the real sessions
 * (BENCHMARKS.md, "Cache simulator"): folds on (they happen only on a cache that expired, where they cost no
 * rewrite), tool tiers off (see there for why).
 */
export const POLICY_DEFAULTS = { fold: true, toolTiers: false } as const;

export interface SessionMemory {
  readonly lastAt: number;
  /** tool_use id -> the folded text, its marker, and the stash key the marker names. */
  readonly folds: ReadonlyMap<string, { readonly text: string; readonly marker: string; readonly key: string }>;
  /** Stubbed tool name -> stash key of its full definition; null when tiers were off at the session's start. */
  readonly stubs: ReadonlyMap<string, string> | null;
}

export interface PolicyStep {
  readonly body: Record<string, unknown>;
  readonly memory: SessionMemory;
  readonly stash: readonly StashEntry[];
  /** Stash keys of every marker this request shows the model (recorded as shown, so retrieve answers them). */
  readonly shown: readonly string[];
  readonly foldedNow: number;
  readonly folded: number;
  readonly stubbed: number;
  readonly cold: boolean;
}

/** The key a session's requests share: system and first message, without cache_control (which moves). */
export function sessionKey(body: Readonly<Record<string, unknown>>): string {
  const messages = Array.isArray(body['messages']) ? (body['messages'] as unknown[]) : [];
  const text = JSON.stringify([body['system'] ?? null, messages[0] ?? null], (key, value: unknown) => (key === 'cache_control' ? undefined : value));
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** The TTL of each cache_control breakpoint in `value`: 1 hour where it says so, else the default 5 minutes. */
export function breakpointTtls(value: unknown): number[] {
  const ttls: number[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) walk(item);
    else if (typeof node === 'object' && node !== null) {
      for (const [key, child] of Object.entries(node)) {
        if (key === 'cache_control' && typeof child === 'object' && child !== null) ttls.push((child as { ttl?: unknown }).ttl === '1h' ? TTL_1H_MS : TTL_5M_MS);
        else walk(child);
      }
    }
  };
  walk(value);
  return ttls;
}

/** The longest TTL of the request's breakpoints in `where` (the default 5 minutes when none says 1 hour). */
export function breakpointTtl(value: unknown): number {
  return Math.max(TTL_5M_MS, ...breakpointTtls(value));
}

/** How many cache_control breakpoints the request sets (Anthropic refuses more than four). */
export function countBreakpoints(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, item) => n + countBreakpoints(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  return Object.entries(value).reduce((n, [key, child]) => n + (key === 'cache_control' && child !== null ? 1 : countBreakpoints(child)), 0);
}

/**
 * Whether the model of this request could bring a marker back: a fold or stub tells it to run `tokenless retrieve`,
 * which needs a shell (the request offers Claude Code's Bash tool) and a session the marker is recorded as shown to
 * (the `x-claude-code-session-id` header; its value is `CLAUDE_CODE_SESSION_ID` in that shell). Without either, a
 * marker would be text the model can do nothing with.
 */
export function canRetrieve(body: Readonly<Record<string, unknown>>, sessionId: string | null): boolean {
  if (sessionId === null || sessionId === '') return false;
  const tools = body['tools'];
  return Array.isArray(tools) && tools.some((tool) => typeof tool === 'object' && tool !== null && toolNameOf(tool as ToolDefinition) === RETRIEVING_TOOL);
}

const RETRIEVING_TOOL = 'Bash';

/** `retrievable`: canRetrieve for this request; without it no new fold or stub is made (earlier ones are kept). */
export function stepSession(body: Readonly<Record<string, unknown>>, memory: SessionMemory | undefined, now: number, switches: PolicySwitches, retrievable: boolean): PolicyStep {
  const messages = Array.isArray(body['messages']) ? (body['messages'] as unknown[]) : [];
  const tools = Array.isArray(body['tools']) ? (body['tools'] as ToolDefinition[]) : null;
  const gap = memory === undefined ? null : now - memory.lastAt;
  // The conversation's cache and the whole prompt's (tools and system included) expire separately.
  const conversationCold = gap !== null && gap > breakpointTtl(messages);
  const allCold = gap !== null && gap > breakpointTtl(body);
  const stash: StashEntry[] = [];
  const shown = new Set<string>();

  const folds = new Map(memory?.folds ?? []);
  let foldedNow = 0;
  if (switches.fold && conversationCold && retrievable) {
    for (const candidate of foldCandidates(applyFolds(messages, folds).messages, new Set(folds.keys()), switches.foldOptions ?? FOLD_DEFAULTS)) {
      const { entry } = elide(candidate.text);
      stash.push(entry);
      folds.set(candidate.toolUseId, { text: candidate.text, marker: foldMarker(candidate.text, entry.key), key: entry.key });
      foldedNow += 1;
    }
  }
  const applied = applyFolds(messages, folds);
  for (const id of applied.folded) {
    const key = folds.get(id)?.key;
    if (key !== undefined) shown.add(key);
  }

  let stubs = memory === undefined ? (switches.toolTiers && tools !== null && retrievable ? decideStubs(tools, messages, switches, stash) : null) : memory.stubs;
  if (stubs !== null && allCold && tools !== null) {
    // A promotion rewrites the tools, and with them the whole cache: only when all of it has expired anyway.
    const used = toolsUsedIn(messages);
    if ([...stubs.keys()].some((name) => used.has(name))) stubs = new Map([...stubs].filter(([name]) => !used.has(name)));
  }
  let forwardedTools = tools;
  if (stubs !== null && stubs.size > 0 && tools !== null) {
    forwardedTools = applyTiers(tools, stubs);
    for (const [name, key] of stubs) if (tools.some((tool) => toolNameOf(tool) === name)) shown.add(key);
  }
  const changed = applied.folded.length > 0 || forwardedTools !== tools;
  const out: Record<string, unknown> = changed ? { ...body, messages: applied.messages, ...(forwardedTools === null ? {} : { tools: forwardedTools }) } : { ...body };
  return {
    body: out,
    memory: { lastAt: now, folds, stubs },
    stash,
    shown: [...shown],
    foldedNow,
    folded: applied.folded.length,
    stubbed: stubs?.size ?? 0,
    cold: conversationCold,
  };
}

function decideStubs(tools: readonly ToolDefinition[], messages: readonly unknown[], switches: PolicySwitches, stash: StashEntry[]): Map<string, string> {
  const stubs = new Map<string, string>();
  for (const name of toolsToStub(tools, messages, switches.coreTools ?? CORE_TOOLS)) {
    const tool = tools.find((t) => toolNameOf(t) === name);
    if (tool === undefined) continue;
    const { entry } = elide(toolDefinitionText(tool));
    stash.push(entry);
    stubs.set(name, entry.key);
  }
  return stubs;
}
