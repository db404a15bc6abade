/**
 * Routing keys for engines that route by key rather than by breakpoint. OpenAI's `prompt_cache_key` keeps one
 * prefix on one cache machine until a key sees about 15 requests a minute, after which requests spill to others;
 * so a busy prefix is sharded over several keys, each under a soft cap, with a session always on the same shard.
 */
import { createHash } from 'node:crypto';

/** Below OpenAI's ~15 requests/minute per key, with headroom (TELOS's KEY_RPM_SOFT_CAP). */
export const KEY_RPM_SOFT_CAP = 12;

const hex = (text: string, length: number) => createHash('sha256').update(text).digest('hex').slice(0, length);

/** Digest of the stable prefix (tools + PIN system): requests that share it share a key. */
export const prefixDigest = (stablePrefix: string): string => hex(stablePrefix, 16);

export interface RoutingKey {
  readonly key: string;
  readonly shards: number;
  readonly shard: number;
}

/** `syt-<prefix digest>` or, when the expected rate needs it, `syt-<digest>-<shard>` chosen by session. */
export function shardedKey(stablePrefix: string, sessionKey: string, requestsPerMinute: number): RoutingKey {
  const base = `syt-${prefixDigest(stablePrefix)}`;
  const shards = Math.max(1, Math.ceil(Math.max(0, requestsPerMinute) / KEY_RPM_SOFT_CAP));
  if (shards === 1) return { key: base, shards, shard: 0 };
  const shard = Number.parseInt(hex(sessionKey, 8), 16) % shards;
  return { key: `${base}-${shard}`, shards, shard };
}

/** vLLM `cache_salt` and SGLang routing keys isolate per tenant/session: derived from the session, not the prefix. */
export const sessionKeyFor = (sessionKey: string): string => `syt-${hex(sessionKey, 16)}`;
