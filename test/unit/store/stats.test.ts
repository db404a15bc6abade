import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectStats } from '../../../src/store/stats-health.ts';
import { STATS_TEXT_CAP_BYTES, StatsRecorder, capText, openStatsDb, setStatsEnabled, type OperationRecord } from '../../../src/store/stats.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const tempDir = useTempDirs();

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

  it('caps stored texts at 1 MiB on a character boundary and flags the cut', () => {
    const big = 'é'.repeat(STATS_TEXT_CAP_BYTES);
    const capped = capText(big);
    expect(capped.truncated).toBe(true);
    expect(Buffer.byteLength(capped.text)).toBeLessThanOrEqual(STATS_TEXT_CAP_BYTES);
    expect(capped.text.endsWith('é')).toBe(true);
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
