/**
 * Anthropic's prompt cache as the fake API accounts it, close enough to tell a cache read from a re-write: the prompt is
 * a sequence of blocks (each tool, each system block, each message's content blocks, in that order); a breakpoint
 * (`cache_control`) writes an entry for the prefix up to its block, with its TTL (5 minutes, or 1 hour); a request
 * reads the longest live entry that ends at one of the 20 block boundaries up to any of its breakpoints, which
 * refreshes that entry. Tokens are estimated as characters / 4. Time is the caller's clock (a test moves it).
 */
import { createHash } from 'node:crypto';

const LOOKBACK_BLOCKS = 20;
const TTL_5M = 5 * 60_000;
const TTL_1H = 60 * 60_000;

export interface CacheUsage {
  readonly read: number;
  readonly write: number;
  readonly input: number;
}

/** One request's accounting, as the test reads it afterwards. */
export interface CacheEvent extends CacheUsage {
  readonly at: number;
  readonly maxTokens: unknown;
}

export class PromptCache {
  readonly events: CacheEvent[] = [];
  private readonly entries = new Map<string, { lastUse: number; ttl: number }>();
  private readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }

  account(body: Readonly<Record<string, unknown>>): CacheUsage {
    const now = this.now();
    const blocks = promptBlocks(body);
    const keys: string[] = [];
    const tokens: number[] = [];
    const hash = createHash('sha256');
    let total = 0;
    for (const block of blocks) {
      hash.update(block.text);
      keys.push(hash.copy().digest('hex'));
      total += Math.ceil(block.text.length / 4);
      tokens.push(total);
    }
    const live = (i: number): boolean => {
      const entry = this.entries.get(keys[i] ?? '');
      return entry !== undefined && now - entry.lastUse <= entry.ttl;
    };
    const breakpoints = blocks.flatMap((block, i) => (block.ttl === null ? [] : [i]));
    let hit = -1;
    for (const b of breakpoints) for (let i = b; i >= Math.max(0, b - LOOKBACK_BLOCKS); i -= 1) if (i > hit && live(i)) hit = i;
    const hitEntry = hit >= 0 ? this.entries.get(keys[hit] ?? '') : undefined;
    if (hitEntry !== undefined) hitEntry.lastUse = now;
    const read = hit >= 0 ? (tokens[hit] ?? 0) : 0;
    let written = read;
    for (const b of breakpoints) {
      if (b <= hit) continue;
      this.entries.set(keys[b] ?? '', { lastUse: now, ttl: blocks[b]?.ttl ?? TTL_5M });
      written = Math.max(written, tokens[b] ?? 0);
    }
    const usage = { read, write: written - read, input: total - written };
    this.events.push({ ...usage, at: now, maxTokens: body['max_tokens'] });
    return usage;
  }
}

function promptBlocks(body: Readonly<Record<string, unknown>>): { text: string; ttl: number | null }[] {
  const out: { text: string; ttl: number | null }[] = [];
  const add = (value: unknown, prefix: string): void => {
    const block = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : { text: value };
    const control = block['cache_control'];
    const ttl = typeof control === 'object' && control !== null ? ((control as { ttl?: unknown }).ttl === '1h' ? TTL_1H : TTL_5M) : null;
    out.push({ text: prefix + JSON.stringify(block, (key, v: unknown) => (key === 'cache_control' ? undefined : v)), ttl });
  };
  for (const tool of Array.isArray(body['tools']) ? body['tools'] : []) add(tool, 'tool:');
  const system = body['system'];
  if (Array.isArray(system)) for (const block of system) add(block, 'system:');
  else if (system !== undefined) add(system, 'system:');
  for (const message of Array.isArray(body['messages']) ? (body['messages'] as { role?: unknown; content?: unknown }[]) : []) {
    const content = Array.isArray(message.content) ? message.content : [message.content];
    content.forEach((block, i) => add(block, i === 0 ? `${String(message.role)}:` : ''));
  }
  return out;
}
