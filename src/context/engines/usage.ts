/**
 * Usage normalised across engines: `cache_read` (input served from cache), `cache_write` (input written to cache),
 * `raw_input` (input neither read from nor written to cache), `output`. Total input = the first three.
 */
import type { Engine } from './capabilities.ts';

export interface NormalisedUsage {
  readonly cache_read: number;
  readonly cache_write: number;
  readonly raw_input: number;
  readonly output: number;
}

const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const obj = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});

/** Reads a response's usage object (the `usage` of a response, or Gemini's `usageMetadata`). */
export function normaliseUsage(engine: Engine, raw: unknown): NormalisedUsage {
  const usage = obj(raw);
  switch (engine) {
    case 'anthropic':
      return {
        cache_read: num(usage['cache_read_input_tokens']),
        cache_write: num(usage['cache_creation_input_tokens']),
        raw_input: num(usage['input_tokens']),
        output: num(usage['output_tokens']),
      };
    case 'deepseek': {
      const hit = num(usage['prompt_cache_hit_tokens']);
      const miss = usage['prompt_cache_miss_tokens'];
      return { cache_read: hit, cache_write: 0, raw_input: typeof miss === 'number' ? miss : Math.max(0, num(usage['prompt_tokens']) - hit), output: num(usage['completion_tokens']) };
    }
    case 'gemini': {
      const cached = num(usage['cachedContentTokenCount']);
      return { cache_read: cached, cache_write: 0, raw_input: Math.max(0, num(usage['promptTokenCount']) - cached), output: num(usage['candidatesTokenCount']) };
    }
    case 'openai':
    case 'vllm':
    case 'sglang': {
      const cached = num(obj(usage['prompt_tokens_details'])['cached_tokens']);
      return { cache_read: cached, cache_write: 0, raw_input: Math.max(0, num(usage['prompt_tokens']) - cached), output: num(usage['completion_tokens']) };
    }
  }
}

/** Adds a streamed Anthropic event's usage (message_start carries input, message_delta the running output). */
export function mergeUsage(a: NormalisedUsage, b: Partial<NormalisedUsage>): NormalisedUsage {
  return {
    cache_read: b.cache_read ?? a.cache_read,
    cache_write: b.cache_write ?? a.cache_write,
    raw_input: b.raw_input ?? a.raw_input,
    output: b.output ?? a.output,
  };
}
