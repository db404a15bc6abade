/**
 * One row per applied operation. Writers never let a stats failure reach a lifecycle: `StatsRecorder.tryRecord`
 * swallows errors and remembers them, and `tokenless stats status` reports the damage.
 */
import * as z from 'zod/mini';
import { stashKeyFor } from './marker.ts';
import { losslessKinds, recordRetrieval, viewOfKey, type RetrievalRecord, type ViewOfKey } from './retrievals.ts';
import { openDatabase, type Migration, type SqlDatabase } from './sqlite.ts';

export const STATS_FILE = 'stats.db';

/** Set by migration 3 until the dropped texts are gone from the file (see purgePending). */
const PURGE_PENDING = 'purge_pending';

/** Exported for the migration tests, which rebuild an older schema from its first versions. */
export const STATS_MIGRATIONS: readonly Migration[] = [
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
  {
    // Secrets at rest (issue 15, item 13): tool output holds whatever the tools printed (keys in `env`, tokens in a
    // `cat`), and an audit needs none of it. A row keeps sizes, line and token counts, and a SHA-256 prefix of each
    // side (enough to prove one stage's output is the next one's input); the original itself lives only in the stash,
    // for its TTL. DROP COLUMN leaves the old bytes in the file, so a purge (VACUUM, then an empty WAL) is marked
    // pending here and done by purgePending, again on a later open if another process held the file.
    version: 3,
    sql: `
      ALTER TABLE operations ADD COLUMN before_digest TEXT;
      ALTER TABLE operations ADD COLUMN after_digest TEXT;
      ALTER TABLE operations ADD COLUMN before_lines INTEGER;
      ALTER TABLE operations ADD COLUMN after_lines INTEGER;
      ALTER TABLE operations DROP COLUMN before_text;
      ALTER TABLE operations DROP COLUMN after_text;
      ALTER TABLE operations DROP COLUMN texts_truncated;
      INSERT INTO settings (key, value) VALUES ('${PURGE_PENDING}', '1') ON CONFLICT (key) DO UPDATE SET value = excluded.value;
    `,
  },
  {
    // Views that cost the agent a turn (issue 23): every retrieval of an original and every re-run of a command just
    // shown through a view, with sizes only (no output, no command line: the program name at most). A view's project
    // lets a kind retrieved too often switch to lossless there (lossless_kinds, kept up to date on each retrieval).
    version: 4,
    sql: `
      ALTER TABLE operations ADD COLUMN project TEXT;
      CREATE TABLE retrievals (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        ts INTEGER NOT NULL,
        session_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('retrieve', 'rerun')),
        stash_key TEXT,
        view_kind TEXT,
        project TEXT,
        scope TEXT NOT NULL CHECK (scope IN ('whole', 'targeted', 'rerun')),
        how TEXT,
        printed_bytes INTEGER NOT NULL,
        printed_tokens INTEGER NOT NULL,
        program TEXT
      );
      CREATE INDEX retrievals_ts ON retrievals (ts);
      CREATE INDEX retrievals_kind ON retrievals (project, view_kind);
      CREATE INDEX operations_kind ON operations (project, content_type);
      CREATE TABLE lossless_kinds (
        project TEXT NOT NULL,
        view_kind TEXT NOT NULL,
        views INTEGER NOT NULL,
        retrievals INTEGER NOT NULL,
        since INTEGER NOT NULL,
        PRIMARY KEY (project, view_kind)
      ) WITHOUT ROWID;
    `,
  },
  {
    // OTLP export (issue 26): the last id of each table a collector accepted, and when, so `stats export --otlp`
    // sends each record once and a collector that was down gets what is pending on the next run.
    version: 5,
    sql: `
      CREATE TABLE export_watermarks (
        source TEXT PRIMARY KEY CHECK (source IN ('operations', 'retrievals')),
        last_id INTEGER NOT NULL,
        exported_at INTEGER NOT NULL
      ) WITHOUT ROWID;
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
  /** First 24 hex digits of the SHA-256 of each side; null on rows recorded before the texts were dropped. */
  before_digest: z.nullable(z.string()),
  after_digest: z.nullable(z.string()),
  before_lines: z.nullable(z.number()),
  after_lines: z.nullable(z.number()),
  stash_keys: z.string(),
  stash_writes: z.number(),
  /** The project the view was shown in (its git root, else the working directory); null before migration 4. */
  project: z.optional(z.nullable(z.string())),
});
export type StatsRow = z.infer<typeof StatsRow>;

export const StoredStatsRow = z.extend(StatsRow, { id: z.number() });
export type StoredStatsRow = z.infer<typeof StoredStatsRow>;

/** What a lifecycle reports; the recorder keeps only the derived columns (sizes, counts, digests), never the texts. */
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
  readonly project?: string | undefined;
}

export function openStatsDb(dataDir: string): SqlDatabase {
  const db = openDatabase(dataDir, STATS_FILE, STATS_MIGRATIONS);
  purgePending(db);
  return db;
}

/**
 * Rewrites the file without the pages the dropped texts were in (VACUUM) and empties the WAL, once. Another process
 * reading the file makes VACUUM fail with SQLITE_BUSY: the mark stays and the next writer to open the file tries again.
 */
function purgePending(db: SqlDatabase): void {
  if (db.prepare<[], { value: string }>(`SELECT value FROM settings WHERE key = '${PURGE_PENDING}'`).get() === undefined) return;
  try {
    db.exec('VACUUM');
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.prepare(`DELETE FROM settings WHERE key = '${PURGE_PENDING}'`).run();
  } catch {
    // Busy: retried on a later open; the rows themselves hold no text any more.
  }
}

export function toRow(record: OperationRecord, now: number): StatsRow {
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
    before_digest: stashKeyFor(record.before),
    after_digest: stashKeyFor(record.after),
    before_lines: lineCount(record.before),
    after_lines: lineCount(record.after),
    stash_keys: JSON.stringify(record.stashKeys),
    stash_writes: record.stashWrites,
    project: record.project ?? null,
  };
}

/** Lines as an editor counts them: a last line without a newline still counts. */
export function lineCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count += 1;
  return text === '' || text.endsWith('\n') ? count : count + 1;
}

export function insertRows(db: SqlDatabase, rows: readonly StatsRow[]): void {
  const insert = db.prepare(
    `INSERT INTO operations (ts, lifecycle, operation, agent_id, session_id, tool_use_id, tool_name, origin,
      content_type, mode, recoverability, before_bytes, after_bytes, before_tokens, after_tokens, token_method,
      before_digest, after_digest, before_lines, after_lines, stash_keys, stash_writes, project)
     VALUES (@ts, @lifecycle, @operation, @agent_id, @session_id, @tool_use_id, @tool_name, @origin,
      @content_type, @mode, @recoverability, @before_bytes, @after_bytes, @before_tokens, @after_tokens, @token_method,
      @before_digest, @after_digest, @before_lines, @after_lines, @stash_keys, @stash_writes, @project)`,
  );
  db.transaction(() => {
    for (const row of rows) insert.run({ ...row, project: row.project ?? null });
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

  /** Records a retrieval or re-run and updates the project's lossless switch for its view kind; fail-open like rows. */
  tryRecordRetrieval(record: RetrievalRecord): boolean {
    if (this.#failure !== null) return false;
    try {
      this.#db ??= openStatsDb(this.#dataDir);
      if (!statsEnabled(this.#db)) return false;
      recordRetrieval(this.#db, record, this.#now());
      return true;
    } catch (error) {
      this.#failure = error instanceof Error ? error.message : String(error);
      return false;
    }
  }

  /** The view kinds switched to lossless in a project (empty when nothing was recorded or the file is unreadable). */
  losslessKinds(project: string): ReadonlySet<string> {
    if (this.#failure !== null) return new Set();
    try {
      this.#db ??= openStatsDb(this.#dataDir);
      return losslessKinds(this.#db, project);
    } catch (error) {
      this.#failure = error instanceof Error ? error.message : String(error);
      return new Set();
    }
  }

  /** What the stats remember of the view that showed this key to the session (kind, project, original tokens). */
  viewOfKey(sessionId: string, key: string): ViewOfKey | null {
    if (this.#failure !== null) return null;
    try {
      this.#db ??= openStatsDb(this.#dataDir);
      return viewOfKey(this.#db, sessionId, key);
    } catch (error) {
      this.#failure = error instanceof Error ? error.message : String(error);
      return null;
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
