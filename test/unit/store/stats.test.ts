import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getRecord, withStatsReader } from '../../../src/store/stats-client.ts';
import { inspectStats } from '../../../src/store/stats-health.ts';
import { openDatabase } from '../../../src/store/sqlite.ts';
import { StatsRecorder, lineCount, openStatsDb, setStatsEnabled, STATS_FILE, STATS_MIGRATIONS, type OperationRecord } from '../../../src/store/stats.ts';
import { stashKeyFor } from '../../../src/store/marker.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const tempDir = useTempDirs();

/** The stats schema as versions 1 and 2 shipped it (before/after texts included): what migration 3 must clean. */
const OLD_MIGRATIONS = STATS_MIGRATIONS.slice(0, 2);

const record = (overrides: Partial<OperationRecord> = {}): OperationRecord => ({
  lifecycle: 'post_tool',
  operations: ['json_compact', 'toon'],
  agentId: 'agent',
  sessionId: 'session',
  toolUseId: 'tool',
  toolName: 'Bash',
  origin: 'command_output',
  contentType: 'json',
  mode: 'active',
  recoverability: 'lossless',
  before: '{ "a": 1 }',
  after: '{"a":1}',
  beforeTokens: 6,
  afterTokens: 5,
  tokenMethod: 'estimated',
  stashKeys: [],
  stashWrites: 0,
  ...overrides,
});

describe('StatsRecorder', () => {
  it('writes one row per applied operation with bytes, tokens and mode', () => {
    const dir = tempDir();
    const recorder = new StatsRecorder(dir, () => 42);
    expect(recorder.tryRecord([record(), record({ mode: 'dry_run' })])).toBe(true);
    recorder.close();
    const db = openStatsDb(dir);
    const rows = db.prepare('SELECT ts, operation, mode, before_bytes, after_bytes, before_tokens, after_tokens, token_method FROM operations ORDER BY id').all();
    expect(rows).toEqual([
      { ts: 42, operation: 'json_compact+toon', mode: 'active', before_bytes: 10, after_bytes: 7, before_tokens: 6, after_tokens: 5, token_method: 'estimated' },
      { ts: 42, operation: 'json_compact+toon', mode: 'dry_run', before_bytes: 10, after_bytes: 7, before_tokens: 6, after_tokens: 5, token_method: 'estimated' },
    ]);
    db.close();
  });

  it('keeps no tool output: only sizes, line counts and SHA-256 prefixes of each side (issue 15, item 13)', () => {
    const dir = tempDir();
    const secret = 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    const recorder = new StatsRecorder(dir, () => 42);
    expect(recorder.tryRecord([record({ before: `${secret}\nPATH=/usr/bin\n`, after: `${secret}\n…` })])).toBe(true);
    recorder.close();
    const db = openStatsDb(dir);
    const columns = (db.prepare('PRAGMA table_info(operations)').all() as { name: string }[]).map((column) => column.name);
    expect(columns).not.toContain('before_text');
    expect(columns).not.toContain('after_text');
    expect(db.prepare('SELECT before_digest, after_digest, before_lines, after_lines FROM operations').get()).toEqual({
      before_digest: stashKeyFor(`${secret}\nPATH=/usr/bin\n`),
      after_digest: stashKeyFor(`${secret}\n…`),
      before_lines: 2,
      after_lines: 2,
    });
    db.close();
    for (const file of [STATS_FILE, `${STATS_FILE}-wal`]) {
      if (existsSync(join(dir, file))) expect(readFileSync(join(dir, file)).includes(secret)).toBe(false);
    }
  });

  it('drops the texts of a version 2 database, leaving no copy of them in the file or its WAL', () => {
    const dir = tempDir();
    const secret = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
    // The schema as versions 1 and 2 created it, with texts in it (one row over a page, so overflow pages hold it).
    const old = openDatabase(dir, STATS_FILE, OLD_MIGRATIONS);
    const insert = old.prepare(`INSERT INTO operations (ts, lifecycle, operation, agent_id, session_id, mode, recoverability, before_bytes, after_bytes,
      before_tokens, after_tokens, token_method, before_text, after_text) VALUES (1, 'run', 'x', 'a', 's', 'active', 'lossless', 1, 1, 1, 1, 'estimated', ?, ?)`);
    for (let i = 0; i < 20; i += 1) insert.run(`${secret} ${'x'.repeat(8000)}`, `${secret} short`);
    old.close();
    expect(readFileSync(join(dir, STATS_FILE)).includes(secret)).toBe(true);
    // The audit side (`tokenless stats show`) migrates an old file before it reads it.
    expect(withStatsReader(dir, null, (reader) => getRecord(reader, 1))).toMatchObject({ before_digest: null, before_lines: null });
    const db = openStatsDb(dir);
    expect(db.pragma('user_version', { simple: true })).toBe(STATS_MIGRATIONS.at(-1)?.version);
    expect(db.prepare('SELECT COUNT(*) AS n, MAX(before_digest) AS digest FROM operations').get()).toEqual({ n: 20, digest: null });
    db.close();
    for (const file of [STATS_FILE, `${STATS_FILE}-wal`]) {
      if (existsSync(join(dir, file))) expect(readFileSync(join(dir, file)).includes(secret)).toBe(false);
    }
  });

  it.each([
    ['', 0],
    ['a', 1],
    ['a\n', 1],
    ['a\nb', 2],
    ['\n\n', 2],
  ])('lineCount(%j) is %i', (text, expected) => {
    expect(lineCount(text)).toBe(expected);
  });

  it('records nothing while disabled', () => {
    const dir = tempDir();
    const db = openStatsDb(dir);
    setStatsEnabled(db, false);
    db.close();
    const recorder = new StatsRecorder(dir);
    expect(recorder.tryRecord([record()])).toBe(false);
    recorder.close();
    expect(inspectStats(dir)).toMatchObject({ health: 'ok', enabled: false, records: 0 });
  });

  it('fails open on a damaged stats.db and status reports the damage', () => {
    const dir = tempDir();
    const healthy = new StatsRecorder(dir);
    healthy.tryRecord([record()]);
    healthy.close();
    writeFileSync(join(dir, 'stats.db'), 'this is not a database '.repeat(100));
    const recorder = new StatsRecorder(dir);
    expect(recorder.tryRecord([record()])).toBe(false);
    expect(recorder.failure).toMatch(/not a database|malformed/i);
    recorder.close();
    expect(inspectStats(dir).health).toBe('damaged');
  });
});
