/** Shared pieces of the `stats` commands: the reader with damage as exit 1, option schemas, number formats. */
import * as z from 'zod/mini';
import type { SqlDatabase } from '../../src/store/sqlite.ts';
import { withStatsReader } from '../../src/store/stats-client.ts';
import { CliError, usageError } from './errors.ts';

/** Runs `read` over stats.db read-only; `empty` when nothing was recorded yet; a damaged file is an operation failure. */
export function readStats<T>(dataDir: string, empty: T, read: (db: SqlDatabase) => T): T {
  try {
    return withStatsReader(dataDir, empty, read);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`tokenless stats: stats.db cannot be read (${error instanceof Error ? error.message : String(error)}); see \`tokenless stats status\``);
  }
}

export const digits = z.string().check(z.regex(/^\d+$/, 'a whole number (0, 1, 2, …)'));
export const decimal = z.string().check(z.regex(/^\d+(\.\d+)?$/, 'a number such as 0.85'));

export function toInt(value: string | undefined, fallback: number): number {
  return value === undefined ? fallback : Number.parseInt(value, 10);
}

/** `--since`: `YYYY-MM-DD`, an ISO timestamp, or a duration back from now (`7d`, `12h`). */
export function parseSince(value: string | undefined, now: number = Date.now(), command = 'stats'): number | null {
  if (value === undefined) return null;
  const relative = /^(\d+)([dh])$/.exec(value);
  if (relative !== null) return now - Number(relative[1]) * (relative[2] === 'd' ? 86_400_000 : 3_600_000);
  const parsed = Date.parse(value);
  if (Number.isNaN(parsed)) throw usageError(`tokenless ${command}: --since expects YYYY-MM-DD, an ISO time, or Nd/Nh; got ${value}`);
  return parsed;
}

export { int, signed } from '../ui/format.ts';
export const pct = (part: number, whole: number): string => (whole === 0 ? '0.0%' : `${((part / whole) * 100).toFixed(1)}%`);
/** Dollars with enough digits for small amounts; negatives keep their sign. */
export const usd = (n: number): string => `${n < 0 ? '-' : ''}$${Math.abs(n) < 1 ? Math.abs(n).toFixed(4) : Math.abs(n).toFixed(2)}`;
export const isoTime = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

export function writeJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Stated under every savings table (honest accounting, README "stats"). */
export function accountingNotes(estimated: number, records: number, hostCapped: number): string[] {
  return [
    `tokens: ${estimated === records ? 'all estimated (fast word-piece heuristic approximating o200k), not counted with a tokenizer' : `${records - estimated} of ${records} counted with a real tokenizer, the rest estimated`}`,
    `before is capped at what the host shows the model (Claude Code: 30,000 characters of Bash output); ${hostCapped} record(s) capped`,
    "savings = before - after, negative when an output grew; truncation the agent asked for (| head, -n) is outside what we record",
  ];
}
