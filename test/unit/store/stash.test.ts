import { statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { elide } from '../../../src/reduce/candidate.ts';
import { stashKeyFor } from '../../../src/store/marker.ts';
import { OLDEST_SQL, STASH_DEFAULTS, StashStore, TOTAL_SQL } from '../../../src/store/stash.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const tempDir = useTempDirs();

describe('StashStore', () => {
  it('returns every stored original byte-exact (random bytes, text with CRLF, NUL and invalid UTF-8)', () => {
    const store = StashStore.open(tempDir());
    try {
      fc.assert(
        fc.property(fc.oneof(fc.uint8Array({ maxLength: 4096 }), fc.string({ unit: 'binary' }).map((s) => Buffer.from(s)), fc.constant(Buffer.from('a\r\nb\0c\xff\xfe', 'latin1'))), (bytes) => {
          const { entry } = elide(bytes);
          expect(store.put([entry])).toMatchObject({ ok: true });
          const got = store.get(entry.key);
          expect(got.ok).toBe(true);
          if (got.ok) expect(Buffer.compare(got.bytes, Buffer.from(bytes))).toBe(0);
        }),
        { numRuns: 300 },
      );
    } finally {
      store.close();
    }
  });

  it('round-trips large compressible text through gzip', () => {
    const store = StashStore.open(tempDir());
    const text = 'PASS test/one.test.ts\n'.repeat(50_000);
    const { entry } = elide(text);
    store.put([entry]);
    const got = store.get(entry.key);
    expect(got.ok && got.bytes.toString('utf8') === text).toBe(true);
    expect(store.stats().storedBytes).toBeLessThan(text.length / 10);
    store.close();
  });

  it('never overwrites an original on a key collision and refuses the whole batch', () => {
    const store = StashStore.open(tempDir());
    const first = elide('the original');
    const innocent = elide('another entry in the same batch');
    expect(store.put([first.entry])).toEqual({ ok: true, written: 1 });
    // A forged entry that claims the same key for other bytes simulates a 96-bit hash collision.
    const forged = { key: first.entry.key, bytes: Buffer.from('different bytes') };
    expect(store.put([innocent.entry, forged])).toEqual({ ok: false, reason: 'collision', key: first.entry.key });
    const kept = store.get(first.entry.key);
    expect(kept.ok && kept.bytes.toString()).toBe('the original');
    expect(store.get(innocent.entry.key)).toEqual({ ok: false, reason: 'unknown' });
    store.close();
  });

  it('renews rather than duplicates an identical original', () => {
    const store = StashStore.open(tempDir());
    const { entry } = elide('same');
    store.put([entry]);
    expect(store.put([entry])).toEqual({ ok: true, written: 0 });
    expect(store.stats().entries).toBe(1);
    store.close();
  });

  it('expires entries after the TTL', () => {
    let now = 1_000_000;
    const store = StashStore.open(tempDir(), { ...STASH_DEFAULTS, ttlMs: 1000 }, () => now);
    const { entry } = elide('short-lived');
    store.put([entry]);
    now += 999;
    expect(store.get(entry.key).ok).toBe(true);
    now += 1;
    expect(store.get(entry.key)).toEqual({ ok: false, reason: 'expired' });
    // The next write sweeps it away.
    store.put([elide('newer').entry]);
    expect(store.stats().entries).toBe(1);
    store.close();
  });

  it('evicts the oldest entries once the total size cap is exceeded', () => {
    let now = 0;
    const store = StashStore.open(tempDir(), { ...STASH_DEFAULTS, maxTotalBytes: 2500 }, () => now);
    const entries = [0, 1, 2, 3].map((i) => elide(Buffer.from(Array.from({ length: 1000 }, (_, j) => (i * 7919 + j * 104729) % 251))).entry);
    for (const entry of entries) {
      now += 1;
      store.put([entry]);
    }
    expect(store.get(entries[0]?.key ?? '').ok).toBe(false);
    expect(store.get(entries[1]?.key ?? '').ok).toBe(false);
    expect(store.get(entries[3]?.key ?? '').ok).toBe(true);
    expect(store.stats().storedBytes).toBeLessThanOrEqual(2500);
    store.close();
  });

  it('refuses an original above the per-entry cap', () => {
    const store = StashStore.open(tempDir(), { ...STASH_DEFAULTS, maxEntryBytes: 10 });
    const { entry } = elide('more than ten bytes');
    expect(store.put([entry])).toEqual({ ok: false, reason: 'too_large', key: entry.key });
    store.close();
  });

  it('detects a damaged body instead of returning wrong bytes', async () => {
    const dir = tempDir();
    const store = StashStore.open(dir);
    const { entry } = elide('precious');
    store.put([entry]);
    store.close();
    // Tamper through a second connection, as disk corruption would.
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(join(dir, 'stash.db'));
    db.prepare('UPDATE stash SET body = ? WHERE key = ?').run(Buffer.from('tampered'), entry.key);
    db.close();
    const reopened = StashStore.open(dir);
    expect(reopened.get(entry.key)).toEqual({ ok: false, reason: 'damaged' });
    reopened.close();
  });

  it('records markers per session', () => {
    const store = StashStore.open(tempDir());
    const key = stashKeyFor('x');
    store.recordShown('session-a', [key]);
    expect(store.wasShown('session-a', key)).toBe(true);
    expect(store.wasShown('session-b', key)).toBe(false);
    store.close();
  });

  it('creates a private data dir and private database files', () => {
    const dir = join(tempDir(), 'nested', 'data');
    StashStore.open(dir).close();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'stash.db')).mode & 0o777).toBe(0o600);
  });

  it("keeping the cap reads only a covering index, never the bodies (a stash of 75 MB took 147 ms a put)", async () => {
    const dir = tempDir();
    const Database = (await import('better-sqlite3')).default;
    // A stash of the first schema, with an entry, as an older version left it: the migration keeps the entry.
    const old = new Database(join(dir, 'stash.db'));
    old.exec(`CREATE TABLE stash (key TEXT PRIMARY KEY, digest TEXT NOT NULL, encoding TEXT NOT NULL CHECK (encoding IN ('raw', 'gzip')),
      body BLOB NOT NULL, size INTEGER NOT NULL, stored_size INTEGER NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
      CREATE INDEX stash_expires ON stash (expires_at); CREATE INDEX stash_created ON stash (created_at);
      CREATE TABLE shown_markers (session_id TEXT NOT NULL, key TEXT NOT NULL, shown_at INTEGER NOT NULL, PRIMARY KEY (session_id, key)) WITHOUT ROWID;
      PRAGMA user_version = 1;`);
    old.close();
    const before = StashStore.open(dir);
    const { entry } = elide('kept across the migration');
    expect(before.put([entry])).toEqual({ ok: true, written: 1 });
    before.close();
    const db = new Database(join(dir, 'stash.db'));
    for (const sql of [TOTAL_SQL, OLDEST_SQL]) {
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[];
      expect(plan.map((row) => row.detail)).toEqual(['SCAN stash USING COVERING INDEX stash_age_size']);
    }
    db.close();
    const after = StashStore.open(dir);
    expect(after.get(entry.key).ok).toBe(true);
    after.close();
  });
});
