/**
 * Per session: the views it was recently shown (by command identity, never their text) and the commands that run raw
 * for the rest of it (the loop breaker). One small JSON file per session, not SQLite: pre_tool reads it on every
 * shell call of a session that has views, and a file read costs far less than loading the SQLite addon. Writers are
 * `tokenless run` (a view shown), pre_tool (a re-run seen) and `tokenless retrieve`; two racing writers lose one
 * entry at worst, which only means one view is not remembered: a best-effort ledger, never a gate on a command.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import type { RecentView } from '../rewrite/rerun.ts';

export const VIEWS_DIR = 'views';

/** A view older than this is not "just shown": running its command again is new work, not a loop. */
export const RERUN_WINDOW_MS = 5 * 60 * 1000;
/** The views a session's re-run check looks at, newest last; older ones drop out. */
export const MAX_VIEWS = 24;
/** Commands a session runs raw; a day covers a working session, after that the loop breaker forgets. */
export const RAW_TTL_MS = 24 * 60 * 60 * 1000;
export const MAX_RAW = 64;

const View = z.object({
  key: z.string(),
  kind: z.string(),
  identity: z.string(),
  files: z.array(z.string()),
  at: z.number(),
  /** Tokens of the original (estimated): what a re-run prints raw. */
  tokens: z.optional(z.number()),
  project: z.optional(z.string()),
});
const Raw = z.object({ identity: z.string(), at: z.number(), why: z.enum(['retrieve', 'rerun']) });
const Ledger = z.object({ views: z.array(View), raw: z.array(Raw) });
export type SessionLedger = z.infer<typeof Ledger>;
export type LedgerView = z.infer<typeof View>;

const EMPTY: SessionLedger = { views: [], raw: [] };

/** The file of a session: its id made safe for a file name (two ids mapping to one file only share a loop breaker). */
export function ledgerPath(dataDir: string, sessionId: string): string {
  const safe = sessionId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 120);
  return join(dataDir, VIEWS_DIR, `${safe === '' ? '_' : safe}.json`);
}

/** The session's ledger; empty when there is none or it cannot be read (nothing is broken by forgetting). */
export function readLedger(dataDir: string, sessionId: string): SessionLedger {
  let text: string;
  try {
    text = readFileSync(ledgerPath(dataDir, sessionId), 'utf8');
  } catch {
    return EMPTY;
  }
  try {
    const parsed = Ledger.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : EMPTY;
  } catch {
    return EMPTY;
  }
}

function writeLedger(dataDir: string, sessionId: string, ledger: SessionLedger): void {
  const path = ledgerPath(dataDir, sessionId);
  mkdirSync(join(dataDir, VIEWS_DIR), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(ledger), { mode: 0o600 });
  renameSync(temporary, path);
}

/** Remembers a view shown to the session (its identity and key, not its text). */
export function rememberView(dataDir: string, sessionId: string, view: LedgerView): void {
  const ledger = readLedger(dataDir, sessionId);
  const views = [...ledger.views.filter((v) => v.key !== view.key), view].slice(-MAX_VIEWS);
  writeLedger(dataDir, sessionId, { views, raw: ledger.raw });
}

/** From now on this session runs the command raw. */
export function markRaw(dataDir: string, sessionId: string, identity: string, why: 'retrieve' | 'rerun', now: number): void {
  if (identity === '') return;
  const ledger = readLedger(dataDir, sessionId);
  const raw = [...ledger.raw.filter((r) => r.identity !== identity && now - r.at < RAW_TTL_MS), { identity, at: now, why }].slice(-MAX_RAW);
  writeLedger(dataDir, sessionId, { views: ledger.views, raw });
}

/** Whether one of these identities runs raw in the session now. */
export function runsRaw(ledger: SessionLedger, identities: readonly string[], now: number): boolean {
  return ledger.raw.some((r) => now - r.at < RAW_TTL_MS && identities.includes(r.identity));
}

export function viewByKey(ledger: SessionLedger, key: string): LedgerView | undefined {
  return ledger.views.find((v) => v.key === key);
}

export function recentViews(ledger: SessionLedger): readonly RecentView[] {
  return ledger.views;
}
