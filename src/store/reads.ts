/**
 * Which file reads a session's model still has in its context: per session and agent (a subagent has a context of
 * its own), the last Read of each file and range, with the SHA-256 of the text it was shown and the tool call that
 * showed it, and (v2) the text itself for the newest reads, so a changed re-read can be shown as a diff against what
 * the model saw. Forgotten when the context is rebuilt (compaction, /clear); bounded per session and by age.
 */
import { openDatabase, type Migration, type SqlDatabase } from './sqlite.ts';

export const READS_FILE = 'reads.db';

/** A session's context holds far fewer distinct reads than this; the oldest go first. A week covers a resume. */
export const READS_LIMITS = { perSession: 1000, ttlMs: 7 * 24 * 60 * 60 * 1000 } as const;

/**
 * Text kept for diffs: a file above 256 KiB is diffed against nothing (shown in full, as before), and only a session's
 * newest 64 reads keep theirs, so one session holds at most 16 MiB of it.
 */
export const READS_TEXT_LIMITS = { maxBytes: 256 * 1024, perSession: 64 } as const;

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE reads (
        session_id TEXT NOT NULL,
        agent TEXT NOT NULL,
        path TEXT NOT NULL,
        range TEXT NOT NULL,
        digest TEXT NOT NULL,
        tool_use_id TEXT NOT NULL,
        seen_at INTEGER NOT NULL,
        PRIMARY KEY (session_id, agent, path, range)
      ) WITHOUT ROWID;
      CREATE INDEX reads_seen ON reads (seen_at);
    `,
  },
  { version: 2, sql: 'ALTER TABLE reads ADD COLUMN text TEXT;' },
];

export interface ReadKey {
  readonly sessionId: string;
  readonly agent: string;
  readonly path: string;
  readonly range: string;
}

export interface SeenRead {
  readonly digest: string;
  readonly toolUseId: string;
  /** What the model was shown, when it was small enough and recent enough to keep. */
  readonly text?: string;
}

export class ReadLedger {
  readonly #db: SqlDatabase;
  readonly #now: () => number;

  constructor(db: SqlDatabase, now: () => number = Date.now) {
    this.#db = db;
    this.#now = now;
  }

  static open(dataDir: string, now: () => number = Date.now): ReadLedger {
    return new ReadLedger(openDatabase(dataDir, READS_FILE, MIGRATIONS), now);
  }

  /** The read still in context for this key, if any (and not older than the TTL). */
  seen(key: ReadKey): SeenRead | undefined {
    const row = this.#db
      .prepare<[string, string, string, string, number], { digest: string; tool_use_id: string; text: string | null }>(
        'SELECT digest, tool_use_id, text FROM reads WHERE session_id = ? AND agent = ? AND path = ? AND range = ? AND seen_at > ?',
      )
      .get(key.sessionId, key.agent, key.path, key.range, this.#now() - READS_LIMITS.ttlMs);
    if (row === undefined) return undefined;
    return { digest: row.digest, toolUseId: row.tool_use_id, ...(row.text === null ? {} : { text: row.text }) };
  }

  /** The model was just shown this text for this key in full: later identical reads may point at it. */
  record(key: ReadKey, read: SeenRead): void {
    const now = this.#now();
    this.#db.transaction(() => {
      this.#db
        .prepare(
          `INSERT INTO reads (session_id, agent, path, range, digest, tool_use_id, seen_at, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (session_id, agent, path, range) DO UPDATE SET digest = excluded.digest, tool_use_id = excluded.tool_use_id, seen_at = excluded.seen_at, text = excluded.text`,
        )
        .run(key.sessionId, key.agent, key.path, key.range, read.digest, read.toolUseId, now, keepable(read.text));
      this.#db.prepare('DELETE FROM reads WHERE seen_at <= ?').run(now - READS_LIMITS.ttlMs);
      this.#db
        .prepare(
          `DELETE FROM reads WHERE session_id = ? AND (agent, path, range) IN (
             SELECT agent, path, range FROM reads WHERE session_id = ? ORDER BY seen_at DESC LIMIT -1 OFFSET ?)`,
        )
        .run(key.sessionId, key.sessionId, READS_LIMITS.perSession);
      this.#db
        .prepare(
          `UPDATE reads SET text = NULL WHERE session_id = ? AND text IS NOT NULL AND (agent, path, range) IN (
             SELECT agent, path, range FROM reads WHERE session_id = ? AND text IS NOT NULL ORDER BY seen_at DESC LIMIT -1 OFFSET ?)`,
        )
        .run(key.sessionId, key.sessionId, READS_TEXT_LIMITS.perSession);
    }).immediate();
  }

  /** The session's context was rebuilt (compaction, /clear): nothing read before is in it any more. */
  forget(sessionId: string): number {
    return this.#db.prepare('DELETE FROM reads WHERE session_id = ?').run(sessionId).changes;
  }

  count(sessionId: string): number {
    return this.#db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM reads WHERE session_id = ?').get(sessionId)?.n ?? 0;
  }

  /** How many of the session's reads still keep their text (bounded by READS_TEXT_LIMITS). */
  texts(sessionId: string): number {
    return this.#db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM reads WHERE session_id = ? AND text IS NOT NULL').get(sessionId)?.n ?? 0;
  }

  close(): void {
    this.#db.close();
  }
}

function keepable(text: string | undefined): string | null {
  return text === undefined || Buffer.byteLength(text) > READS_TEXT_LIMITS.maxBytes ? null : text;
}
