/**
 * What an audit row keeps of one operation's two sides, now that stats.db holds no tool output (README "Security"):
 * sizes, line and token counts, and a SHA-256 prefix. The original is in the stash, retrievable while it lives.
 */
import * as z from 'zod/mini';
import { markerId } from './marker.ts';
import type { StoredStatsRow } from './stats.ts';

export interface KeptSide {
  readonly bytes: number;
  /** null on rows recorded before the texts were dropped. */
  readonly lines: number | null;
  readonly tokens: number;
  /** First 24 hex digits of the SHA-256 of the text; null on rows recorded before the texts were dropped. */
  readonly digest: string | null;
}

export interface KeptRecord {
  readonly id: number;
  readonly operation: string;
  readonly before: KeptSide;
  readonly after: KeptSide;
  /** `tokenless retrieve` commands for the stashed originals (they answer while the stash keeps them, 7 days by default). */
  readonly retrieve: readonly string[];
}

export const TEXTS_NOT_KEPT = 'stats.db keeps no tool output, only sizes, counts and digests; a stashed original comes back with tokenless retrieve while the stash keeps it';

export function keptOf(row: StoredStatsRow, stashKeys: readonly string[]): KeptRecord {
  return {
    id: row.id,
    operation: row.operation,
    before: { bytes: row.before_bytes, lines: row.before_lines, tokens: row.before_tokens, digest: row.before_digest },
    after: { bytes: row.after_bytes, lines: row.after_lines, tokens: row.after_tokens, digest: row.after_digest },
    retrieve: stashKeys.map((key) => `tokenless retrieve ${markerId(key)}`),
  };
}

/** One line per side: `30 lines, 651 bytes, 240 tokens, sha256 1a2b…`. */
export function describeSide(side: KeptSide): string {
  const lines = side.lines === null ? 'lines not recorded' : `${side.lines} line(s)`;
  return `${lines}, ${side.bytes} bytes, ${side.tokens} tokens, sha256 ${side.digest ?? 'not recorded'}`;
}

/** The stash_keys column (a JSON array of keys); anything else reads as none. */
export function parseStashKeys(text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const parsed = z.array(z.string()).safeParse(value);
  return parsed.success ? parsed.data : [];
}
