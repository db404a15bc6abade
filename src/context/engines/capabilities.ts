/**
 * What each engine's prompt cache offers, from the providers' documentation and TELOS's matrix. A plan never asks
 * an engine for more than this row; what an IR asked for beyond it is reported as a degradation.
 */
export const ENGINES = ['anthropic', 'openai', 'deepseek', 'gemini', 'vllm', 'sglang'] as const;
export type Engine = (typeof ENGINES)[number];

export interface Capabilities {
  /** Explicit cache breakpoints per request (Anthropic's `cache_control`). */
  readonly breakpoints: number;
  /** A cheap request that writes the cache ahead of need. */
  readonly prewarm: boolean;
  /** The request field that routes to a warm cache, if any. */
  readonly routingKey: 'prompt_cache_key' | 'cache_salt' | 'routing_key' | null;
  readonly cacheProbe: boolean;
  readonly forkAndReplace: 'none' | 'partial' | 'full';
}

export const CAPABILITIES: Readonly<Record<Engine, Capabilities>> = {
  anthropic: { breakpoints: 4, prewarm: true, routingKey: null, cacheProbe: false, forkAndReplace: 'none' },
  openai: { breakpoints: 0, prewarm: false, routingKey: 'prompt_cache_key', cacheProbe: false, forkAndReplace: 'none' },
  deepseek: { breakpoints: 0, prewarm: false, routingKey: null, cacheProbe: false, forkAndReplace: 'none' },
  gemini: { breakpoints: 0, prewarm: false, routingKey: null, cacheProbe: false, forkAndReplace: 'none' },
  // vLLM's automatic prefix caching needs no markers; cache_salt isolates (and so routes) caches per tenant.
  vllm: { breakpoints: 0, prewarm: true, routingKey: 'cache_salt', cacheProbe: true, forkAndReplace: 'partial' },
  // SGLang's radix cache needs no markers; its router keeps a session on one worker by a routing key.
  sglang: { breakpoints: 0, prewarm: true, routingKey: 'routing_key', cacheProbe: true, forkAndReplace: 'full' },
};

/** What the caller would like; each engine grants what its row allows. */
export interface CacheIntent {
  readonly breakpoints: boolean;
  readonly prewarm: boolean;
  readonly routingKey: boolean;
  readonly cacheProbe: boolean;
  readonly forkAndReplace: boolean;
}

export const DEFAULT_INTENT: CacheIntent = { breakpoints: true, prewarm: false, routingKey: true, cacheProbe: false, forkAndReplace: false };

export interface Degradation {
  readonly feature: keyof CacheIntent;
  readonly asked: string;
  readonly granted: string;
  readonly action: string;
}

/** The fixed, ordered list of what `engine` cannot give of `intent`, and what it gets instead. */
export function degradations(engine: Engine, intent: CacheIntent): Degradation[] {
  const caps = CAPABILITIES[engine];
  const out: Degradation[] = [];
  if (intent.breakpoints && caps.breakpoints === 0) out.push({ feature: 'breakpoints', asked: 'explicit breakpoints', granted: 'none', action: 'stable prefix order only (automatic prefix cache)' });
  if (intent.prewarm && !caps.prewarm) out.push({ feature: 'prewarm', asked: 'prewarm', granted: 'none', action: 'no refresh requests are sent' });
  if (intent.routingKey && caps.routingKey === null) out.push({ feature: 'routingKey', asked: 'routing key', granted: 'none', action: 'requests rely on the provider routing by prefix' });
  if (intent.cacheProbe && !caps.cacheProbe) out.push({ feature: 'cacheProbe', asked: 'cache probe', granted: 'none', action: 'cache state inferred from reported usage' });
  if (intent.forkAndReplace && caps.forkAndReplace !== 'full') out.push({ feature: 'forkAndReplace', asked: 'full', granted: caps.forkAndReplace, action: caps.forkAndReplace === 'none' ? 'fold is a client-side rewrite (the span is re-prefilled)' : 'partial fork only' });
  return out;
}
