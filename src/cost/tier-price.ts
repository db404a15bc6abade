/**
 * Prices the gateway's tool tiers (src/gateway/tool-tiers.ts) on a recorded session. Transcripts do not hold the
 * tool definitions, so they come from a captured request of the client (`tools`); the session's tool use comes from
 * its transcript. At the main session's first request the tools it has not used and that are not core become stubs
 * (o200k tokens of each definition minus its stub's, off the stable prefix of every main request); a stubbed tool the
 * agent calls is promoted back at the first request after the whole cache expired (a new prefix, written in full);
 * until then its first call is priced as the agent retrieving the definition first (its tokens added to the prompt).
 */
import type { ToolDefinition } from '../protocol/schemas.ts';
import { toolsUsedIn } from '../schema/stubs.ts';
import { toolNameOf } from '../schema/tool-shape.ts';
import { stubWithRetrieval, toolDefinitionText, toolsToStub } from '../gateway/tool-tiers.ts';
import { stashKeyFor } from '../store/marker.ts';
import { asMessages } from './fold-price.ts';
import { linesOf, type SimRequest, type SimSession } from './requests.ts';

export interface TierPricing {
  readonly prefixRemoved: ReadonlyMap<SimRequest, number>;
  readonly added: ReadonlyMap<SimRequest, number>;
  readonly stubbed: readonly string[];
  /** Stubbed tools the session called (each retrieved once, promoted at the next cold cache). */
  readonly calledWhileStubbed: readonly string[];
  readonly promotions: number;
}

export interface TierPriceOptions {
  readonly countTokens: (text: string) => number;
  readonly tools: readonly ToolDefinition[];
  /** The longest TTL in effect for a request (ms): the whole prompt's cache is cold after a gap over it. */
  readonly wholeTtl: (request: SimRequest) => number;
  readonly core?: readonly string[];
}

export function priceTiers(session: SimSession, options: TierPriceOptions): TierPricing {
  const main = session.requests.filter((r) => r.agent === 'main');
  const first = main[0];
  const empty: TierPricing = { prefixRemoved: new Map(), added: new Map(), stubbed: [], calledWhileStubbed: [], promotions: 0 };
  if (first === undefined) return empty;
  const stubbed = toolsToStub(options.tools, asMessages(linesOf(first)), options.core);
  const saving = new Map<string, { saved: number; full: number }>();
  for (const name of stubbed) {
    const tool = options.tools.find((t) => toolNameOf(t) === name);
    if (tool === undefined) continue;
    const full = options.countTokens(JSON.stringify(tool));
    const stub = options.countTokens(JSON.stringify(stubWithRetrieval(tool, stashKeyFor(toolDefinitionText(tool)))));
    saving.set(name, { saved: full - stub, full: options.countTokens(toolDefinitionText(tool)) });
  }
  const active = new Set(saving.keys());
  const retrievedAt = new Map<string, number>();
  const prefixRemoved = new Map<SimRequest, number>();
  const added = new Map<SimRequest, number>();
  let promotions = 0;
  let previous: number | null = null;
  for (const request of main) {
    const cold = previous !== null && request.sentAt - previous > options.wholeTtl(request);
    previous = request.sentAt;
    const lines = linesOf(request);
    const used = toolsUsedIn(asMessages(lines));
    if (cold) {
      const promote = [...active].filter((name) => used.has(name));
      for (const name of promote) active.delete(name);
      if (promote.length > 0) promotions += 1;
    }
    for (const line of lines) {
      for (const name of toolsUsedIn(asMessages([line]))) if (active.has(name) && !retrievedAt.has(name)) retrievedAt.set(name, line.time);
    }
    let removed = 0;
    for (const name of active) removed += saving.get(name)?.saved ?? 0;
    let more = 0;
    for (const [name, at] of retrievedAt) if (request.sentAt >= at && request.chain.size > 0) more += saving.get(name)?.full ?? 0;
    if (removed !== 0) prefixRemoved.set(request, removed);
    if (more !== 0) added.set(request, more);
  }
  return { prefixRemoved, added, stubbed: [...saving.keys()], calledWhileStubbed: [...retrievedAt.keys()], promotions };
}
