/**
 * One row per applied operation. Writers never let a stats failure reach a lifecycle: `StatsRecorder.tryRecord`
 * swallows errors and remembers them, and `tokenless stats status` reports the damage.
 */
import * as z from 'zod/mini';
import { openDatabase, type Migration, type SqlDatabase } from './sqlite.ts';

export const STATS_FILE = 'stats.db';
/** Before/after texts kept for audits are capped: a stats row must never cost more than the output it describes. */
export const STATS_TEXT_CAP_BYTES = 1024 * 1024;

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE operations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        ts INTEGER NOT NULL,
        lifecycle TEXT NOT NULL,
        operation TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        tool_use_id TEXT,
        tool_name TEXT,
        origin TEXT,
        content_type TEXT,
        mode TEXT NOT NULL CHECK (mode IN ('active', 'dry_run')),
        recoverability TEXT NOT NULL,
        before_bytes INTEGER NOT NULL,
        after_bytes INTEGER NOT NULL,
        before_tokens INTEGER NOT NULL,
        after_tokens INTEGER NOT NULL,
        token_method TEXT NOT NULL,
        before_text TEXT,
        after_text TEXT,
        texts_truncated INTEGER NOT NULL DEFAULT 0,
        stash_keys TEXT NOT NULL DEFAULT '[]',
        stash_writes INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX operations_ts ON operations (ts);
      CREATE INDEX operations_session ON operations (session_id, tool_use_id);
      CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `,
  },
  {
    // Covering index for `stats summary`: the latest N rows' counters are read from the index alone, never from table
    // pages that also hold the before/after texts (100,000 rows of texts are hundreds of MB to page through).
    version: 2,
    sql: `
      CREATE INDEX operations_summary ON operations (id, ts, lifecycle, operation, session_id, tool_name, mode,
        before_bytes, after_bytes, before_tokens, after_tokens, token_method);
    `,
  },
];

export const StatsRow = z.object({
  ts: z.number(),
  lifecycle: z.string(),
  operation: z.string(),
  agent_id: z.string(),
  session_id: z.string(),
  tool_use_id: z.nullable(z.string()),
  tool_name: z.nullable(z.string()),
  origin: z.nullable(z.string()),
  content_type: z.nullable(z.string()),
  mode: z.enum(['active', 'dry_run']),
  recoverability: z.string(),
  before_bytes: z.number(),
  after_bytes: z.number(),
  before_tokens: z.number(),
  after_tokens: z.number(),
  token_method: z.string(),
  before_text: z.nullable(z.string()),
  after_text: z.nullable(z.string()),
  texts_truncated: z.number(),
  stash_keys: z.string(),
  stash_writes: z.number(),
});
export type StatsRow = z.infer<typeof StatsRow>;

export const StoredStatsRow = z.extend(StatsRow, { id: z.number() });
export type StoredStatsRow = z.infer<typeof StoredStatsRow>;

/** What a lifecycle reports; the recorder caps texts and fills the derived columns. */
export interface OperationRecord {
  readonly lifecycle: string;
  readonly operations: readonly string[];
  readonly agentId: string;
  readonly sessionId: string;
  readonly toolUseId?: string | undefined;
  readonly toolName?: string | undefined;
  readonly origin?: string | undefined;
  readonly contentType?: string | undefined;
  readonly mode: 'active' | 'dry_run';
  readonly recoverability: string;
  readonly before: string;
  readonly after: string;
  readonly beforeTokens: number;
  readonly afterTokens: number;
  readonly tokenMethod: string;
  readonly stashKeys: readonly string[];
  readonly stashWrites: number;
}

export function openStatsDb(dataDir: string): SqlDatabase {
  return openDatabase(dataDir, STATS_FILE, MIGRATIONS);
}

export function toRow(record: OperationRecord, now: number): StatsRow {
  const before = capText(record.before);
  const after = capText(record.after);
  return {
    ts: now,
    lifecycle: record.lifecycle,
    operation: record.operations.join('+'),
    agent_id: record.agentId,
    session_id: record.sessionId,
    tool_use_id: record.toolUseId ?? null,
    tool_name: record.toolName ?? null,
    origin: record.origin ?? null,
    content_type: record.contentType ?? null,
    mode: record.mode,
    recoverability: record.recoverability,
    before_bytes: Buffer.byteLength(record.before),
    after_bytes: Buffer.byteLength(record.after),
    before_tokens: record.beforeTokens,
    after_tokens: record.afterTokens,
    token_method: record.tokenMethod,
    before_text: before.text,
    after_text: after.text,
    texts_truncated: before.truncated || after.truncated ? 1 : 0,
    stash_keys: JSON.stringify(record.stashKeys),
    stash_writes: record.stashWrites,
  };
}

/** Cuts at the byte cap on a character boundary. */
export function capText(text: string): { text: string; truncated: boolean } {
  if (Buffer.byteLength(text) <= STATS_TEXT_CAP_BYTES) return { text, truncated: false };
  const cut = Buffer.from(text).subarray(0, STATS_TEXT_CAP_BYTES).toString('utf8');
  // A split multi-byte character decodes to U+FFFD at the end; drop it.
  return { text: cut.replace(/\uFFFD$/u, ''), truncated: true };
}

export function insertRows(db: SqlDatabase, rows: readonly StatsRow[]): void {
  const insert = db.prepare(
    `INSERT INTO operations (ts, lifecycle, operation, agent_id, session_id, tool_use_id, tool_name, origin,
      content_type, mode, recoverability, before_bytes, after_bytes, before_tokens, after_tokens, token_method,
      before_text, after_text, texts_truncated, stash_keys, stash_writes)
     VALUES (@ts, @lifecycle, @operation, @agent_id, @session_id, @tool_use_id, @tool_name, @origin,
      @content_type, @mode, @recoverability, @before_bytes, @after_bytes, @before_tokens, @after_tokens, @token_method,
      @before_text, @after_text, @texts_truncated, @stash_keys, @stash_writes)`,
  );
  db.transaction(() => {
    for (const row of rows) insert.run(row);
  }).immediate();
}

export function statsEnabled(db: SqlDatabase): boolean {
  const row = db.prepare<[], { value: string }>("SELECT value FROM settings WHERE key = 'enabled'").get();
  return row?.value !== '0';
}

export function setStatsEnabled(db: SqlDatabase, enabled: boolean): void {
  db.prepare("INSERT INTO settings (key, value) VALUES ('enabled', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(
    enabled ? '1' : '0',
  );
}

/**
 * Fail-open writer used by lifecycles. Opening is lazy (a passthrough never opens the DB) and any error, a damaged
 * file included, disables recording for the rest of the process instead of failing the lifecycle.
 */
export class StatsRecorder {
  readonly #dataDir: string;
  readonly #now: () => number;
  #db: SqlDatabase | null = null;
  #failure: string | null = null;

  constructor(dataDir: string, now: () => number = Date.now) {
    this.#dataDir = dataDir;
    this.#now = now;
  }

  get failure(): string | null {
    return this.#failure;
  }

  tryRecord(records: readonly OperationRecord[]): boolean {
    if (records.length === 0 || this.#failure !== null) return false;
    try {
      this.#db ??= openStatsDb(this.#dataDir);
      if (!statsEnabled(this.#db)) return false;
      insertRows(this.#db, records.map((record) => toRow(record, this.#now())));
      return true;
    } catch (error) {
      this.#failure = error instanceof Error ? error.message : String(error);
      return false;
    }
  }

  close(): void {
    try {
      this.#db?.close();
    } catch {
      // Closing a damaged database may throw; nothing is left to protect.
    }
    this.#db = null;
  }
}
