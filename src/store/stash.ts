/**
 * Content-addressed store of originals that a candidate elided. Keys are the first 24 hex digits of SHA-256; the
 * full digest is kept and checked, so a key collision never overwrites another original and every read is verified
 * byte-exact. Bodies over 1 KiB are gzipped when that makes them smaller.
 */
import { STASH_DEFAULTS, type StashLimits } from '../config/stash-limits.ts';
import { builtin } from './builtin.ts';
import { contentDigest } from './marker.ts';
import { openDatabase, type Migration, type SqlDatabase } from './sqlite.ts';

export const STASH_FILE = 'stash.db';

/** An original that must be stashed before the text that names it by marker may be shown. */
export interface StashEntry {
  readonly key: string;
  readonly bytes: Uint8Array;
}

// The limits' defaults belong to config (which overrides them); re-exported for the store's callers.
export { STASH_DEFAULTS, type StashLimits } from '../config/stash-limits.ts';

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE stash (
        key TEXT PRIMARY KEY,
        digest TEXT NOT NULL,
        encoding TEXT NOT NULL CHECK (encoding IN ('raw', 'gzip')),
        body BLOB NOT NULL,
        size INTEGER NOT NULL,
        stored_size INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX stash_expires ON stash (expires_at);
      CREATE INDEX stash_created ON stash (created_at);
      CREATE TABLE shown_markers (
        session_id TEXT NOT NULL,
        key TEXT NOT NULL,
        shown_at INTEGER NOT NULL,
        PRIMARY KEY (session_id, key)
      ) WITHOUT ROWID;
    `,
  },
  {
    // Every put sums the stored sizes to enforce the cap. The sizes sit after the body in each row, so without an index
    // the sum read the whole stash: 147 ms a call at 75 MB (1,500 entries), against 0.2 ms from this covering index,
    // which also serves eviction's oldest-first walk. Pruning the shown markers by age gets its index too.
    version: 2,
    sql: `
      CREATE INDEX stash_age_size ON stash (created_at, key, stored_size, size);
      DROP INDEX stash_created;
      CREATE INDEX shown_markers_age ON shown_markers (shown_at);
    `,
  },
];

/** What each put runs to keep the stash under its cap (exported so a test checks they read only the covering index). */
export const TOTAL_SQL = 'SELECT SUM(stored_size) AS total FROM stash';
export const OLDEST_SQL = 'SELECT key, stored_size FROM stash ORDER BY created_at, key';

export type PutOutcome = { ok: true; written: number } | { ok: false; reason: 'collision' | 'too_large'; key: string };

export type GetOutcome =
  | { ok: true; bytes: Buffer }
  | { ok: false; reason: 'unknown' | 'expired' | 'damaged' };

interface StashRow {
  digest: string;
  encoding: string;
  body: Buffer;
  expires_at: number;
}

export class StashStore {
  readonly #db: SqlDatabase;
  readonly #limits: StashLimits;
  readonly #now: () => number;

  constructor(db: SqlDatabase, limits: StashLimits = STASH_DEFAULTS, now: () => number = Date.now) {
    this.#db = db;
    this.#limits = limits;
    this.#now = now;
  }

  static open(dataDir: string, limits: StashLimits = STASH_DEFAULTS, now: () => number = Date.now): StashStore {
    return new StashStore(openDatabase(dataDir, STASH_FILE, MIGRATIONS), limits, now);
  }

  /** Writes all entries or none; an entry already present with the same digest only has its expiry renewed. */
  put(entries: readonly StashEntry[]): PutOutcome {
    for (const entry of entries) {
      if (entry.bytes.byteLength > this.#limits.maxEntryBytes) return { ok: false, reason: 'too_large', key: entry.key };
    }
    const now = this.#now();
    const expiresAt = now + this.#limits.ttlMs;
    const select = this.#db.prepare<[string], { digest: string }>('SELECT digest FROM stash WHERE key = ?');
    const renew = this.#db.prepare('UPDATE stash SET expires_at = ? WHERE key = ?');
    const insert = this.#db.prepare(
      'INSERT INTO stash (key, digest, encoding, body, size, stored_size, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const write = this.#db.transaction((): PutOutcome => {
      let written = 0;
      for (const entry of entries) {
        const digest = contentDigest(entry.bytes);
        const existing = select.get(entry.key);
        if (existing !== undefined) {
          if (existing.digest !== digest) throw new CollisionError(entry.key);
          renew.run(expiresAt, entry.key);
          continue;
        }
        const { encoding, body } = encode(entry.bytes);
        insert.run(entry.key, digest, encoding, body, entry.bytes.byteLength, body.byteLength, now, expiresAt);
        written += 1;
      }
      this.#evict(now);
      return { ok: true, written };
    });
    try {
      return write.immediate();
    } catch (error) {
      if (error instanceof CollisionError) return { ok: false, reason: 'collision', key: error.key };
      throw error;
    }
  }

  get(key: string): GetOutcome {
    const row = this.#db
      .prepare<[string], StashRow>('SELECT digest, encoding, body, expires_at FROM stash WHERE key = ?')
      .get(key);
    if (row === undefined) return { ok: false, reason: 'unknown' };
    if (row.expires_at <= this.#now()) return { ok: false, reason: 'expired' };
    let bytes: Buffer;
    try {
      bytes = row.encoding === 'gzip' ? zlib().gunzipSync(row.body) : Buffer.from(row.body);
    } catch {
      return { ok: false, reason: 'damaged' };
    }
    return contentDigest(bytes) === row.digest ? { ok: true, bytes } : { ok: false, reason: 'damaged' };
  }

  /** Records that the model of this session was shown these markers: only those may be retrieved there. */
  recordShown(sessionId: string, keys: readonly string[]): void {
    if (keys.length === 0) return;
    const insert = this.#db.prepare(
      'INSERT INTO shown_markers (session_id, key, shown_at) VALUES (?, ?, ?) ON CONFLICT (session_id, key) DO UPDATE SET shown_at = excluded.shown_at',
    );
    const now = this.#now();
    this.#db.transaction(() => {
      for (const key of keys) insert.run(sessionId, key, now);
    }).immediate();
  }

  wasShown(sessionId: string, key: string): boolean {
    return (
      this.#db.prepare('SELECT 1 FROM shown_markers WHERE session_id = ? AND key = ?').get(sessionId, key) !== undefined
    );
  }

  stats(): { entries: number; storedBytes: number; originalBytes: number } {
    const row = this.#db
      .prepare<[], { n: number; stored: number | null; original: number | null }>(
        'SELECT COUNT(*) AS n, SUM(stored_size) AS stored, SUM(size) AS original FROM stash',
      )
      .get();
    return { entries: row?.n ?? 0, storedBytes: row?.stored ?? 0, originalBytes: row?.original ?? 0 };
  }

  close(): void {
    this.#db.close();
  }

  /** Drops expired rows, then the oldest rows until the stored total fits the cap. Runs inside put's transaction. */
  #evict(now: number): void {
    this.#db.prepare('DELETE FROM stash WHERE expires_at <= ?').run(now);
    this.#db.prepare('DELETE FROM shown_markers WHERE shown_at <= ?').run(now - this.#limits.ttlMs);
    const total = this.#db.prepare<[], { total: number | null }>(TOTAL_SQL).get();
    let excess = (total?.total ?? 0) - this.#limits.maxTotalBytes;
    if (excess <= 0) return;
    const oldest = this.#db
      .prepare<[], { key: string; stored_size: number }>(OLDEST_SQL)
      .iterate();
    const remove = this.#db.prepare('DELETE FROM stash WHERE key = ?');
    const doomed: string[] = [];
    for (const row of oldest) {
      if (excess <= 0) break;
      doomed.push(row.key);
      excess -= row.stored_size;
    }
    for (const key of doomed) remove.run(key);
  }
}

class CollisionError extends Error {
  readonly key: string;
  constructor(key: string) {
    super(`stash key collision on ${key}`);
    this.key = key;
  }
}

/** node:zlib on first use: the hook path loads this module but rarely reads or writes a stashed body. */
function zlib(): ReturnType<typeof builtin<'node:zlib'>> {
  return builtin('node:zlib');
}

function encode(bytes: Uint8Array): { encoding: 'raw' | 'gzip'; body: Buffer } {
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (raw.byteLength < 1024) return { encoding: 'raw', body: raw };
  const gz = zlib().gzipSync(raw, { level: 6 });
  return gz.byteLength < raw.byteLength ? { encoding: 'gzip', body: gz } : { encoding: 'raw', body: raw };
}
