/**
 * mark(): the engine decides this turn's cache plan from the IR, and emitRequest() turns IR + plan into the wire
 * request. Pure and deterministic: the same IR, engine and options give the same plan and the same bytes.
 */
import { CAPABILITIES, DEFAULT_INTENT, degradations, type CacheIntent, type Degradation, type Engine } from './engines/capabilities.ts';
import { planAnthropic, type AnthropicPlan } from './engines/anthropic.ts';
import { sessionKeyFor, shardedKey, type RoutingKey } from './engines/routing.ts';
import { emitAnthropic, emitGemini, emitOpenAIChat } from './emit.ts';
import { renderRef, type ContextIR } from './ir.ts';
import { layout } from './layout.ts';

export interface MarkOptions {
  readonly model: string;
  /** Identifies the conversation for shard and salt choices. */
  readonly sessionKey: string;
  readonly intent?: CacheIntent;
  /** Expected requests per minute on this prefix (OpenAI sharding). */
  readonly requestsPerMinute?: number;
}

export interface CachePlan {
  readonly engine: Engine;
  readonly model: string;
  /** Anthropic only: the chosen breakpoints and the ones dropped, with why. */
  readonly anthropic: AnthropicPlan | null;
  readonly routing: (RoutingKey & { readonly field: string }) | null;
  /** What the intent asked for that this engine cannot give: deterministic and always reported. */
  readonly degradations: Degradation[];
}

export function mark(ir: ContextIR, engine: Engine, options: MarkOptions): CachePlan {
  const intent = options.intent ?? DEFAULT_INTENT;
  const caps = CAPABILITIES[engine];
  const anthropic = intent.breakpoints && caps.breakpoints > 0 ? planAnthropic(layout(ir), options.model, caps.breakpoints) : null;
  let routing: CachePlan['routing'] = null;
  if (intent.routingKey && caps.routingKey !== null) {
    routing = caps.routingKey === 'prompt_cache_key'
      ? { field: caps.routingKey, ...shardedKey(stablePrefix(ir), options.sessionKey, options.requestsPerMinute ?? 0) }
      : { field: caps.routingKey, key: sessionKeyFor(options.sessionKey), shards: 1, shard: 0 };
  }
  return { engine, model: options.model, anthropic, routing, degradations: degradations(engine, intent) };
}

/** The tools and PIN system as one string: what OpenAI's key is derived from. */
export function stablePrefix(ir: ContextIR): string {
  return JSON.stringify([ir.tools.map((b) => b.content), ir.system.filter((b) => b.band === 'PIN').map((b) => b.content), ir.refPool.map(renderRef)]);
}

export interface WireRequest {
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string>;
}

export function emitRequest(ir: ContextIR, plan: CachePlan, options: { maxTokens: number; ttl?: '5m' | '1h' }): WireRequest {
  const base = { model: plan.model, maxTokens: options.maxTokens };
  switch (plan.engine) {
    case 'anthropic': {
      const keys = new Set((plan.anthropic?.breakpoints ?? []).map((bp) => bp.key));
      return { body: emitAnthropic(ir, keys, { ...base, ...(options.ttl !== undefined ? { ttl: options.ttl } : {}) }), headers: {} };
    }
    case 'gemini':
      return { body: emitGemini(ir), headers: {} };
    case 'sglang':
      // SGLang's model gateway pins a routing key to one worker; the header is its documented fallback to `rid`.
      return { body: emitOpenAIChat(ir, base), headers: plan.routing !== null ? { 'x-smg-routing-key': plan.routing.key } : {} };
    case 'openai':
    case 'vllm':
    case 'deepseek': {
      const body = emitOpenAIChat(ir, base);
      if (plan.routing !== null) body[plan.routing.field] = plan.routing.key;
      return { body, headers: {} };
    }
  }
}
