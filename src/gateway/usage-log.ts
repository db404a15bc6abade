/** The gateway's usage log: one JSON line per forwarded call, appended to `<data dir>/usage.jsonl` (mode 0600). */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { NormalisedUsage } from '../context/engines/usage.ts';
import type { PolicyReport } from './policies.ts';

export const USAGE_LOG_FILE = 'usage.jsonl';

export interface UsageRecord {
  readonly ts: string;
  readonly engine: 'anthropic';
  readonly path: string;
  readonly status: number;
  readonly session_id: string | null;
  readonly model: string | null;
  readonly stream: boolean;
  readonly usage: NormalisedUsage | null;
  readonly request_bytes: number;
  readonly forwarded_bytes: number;
  readonly schema_saved_bytes: number;
  /** What the session policies did to this request (absent when they are off). */
  readonly policy?: PolicyReport;
  /** A keep-warm ping the gateway sent by itself (./keep-warm.ts), not a call of the client's. */
  readonly keep_warm?: true;
  readonly duration_ms: number;
}

/** Appends one record; a log that cannot be written never affects the proxied call. */
export function appendUsage(dataDir: string, record: UsageRecord): boolean {
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    appendFileSync(join(dataDir, USAGE_LOG_FILE), `${JSON.stringify(record)}\n`, { mode: 0o600 });
    return true;
  } catch {
    return false;
  }
}
