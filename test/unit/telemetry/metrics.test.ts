import { describe, expect, it } from 'vitest';
import { operationGroups, retrievalGroups } from '../../../src/store/stats-export.ts';
import { summarize } from '../../../src/store/stats-query.ts';
import { openStatsDb, StatsRecorder, type OperationRecord } from '../../../src/store/stats.ts';
import { turnTotals } from '../../../src/store/retrievals.ts';
import { ATTRIBUTE_KEYS, commandFamilyOf, parseResourceAttributes, toMetricPoints, type MetricPoint } from '../../../src/telemetry/metrics.ts';
import { toPrometheusText } from '../../../src/telemetry/prometheus.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const tempDir = useTempDirs();

/** Text that must never reach an attribute: each is planted in a column an attribute is derived from. */
const SECRETS = ['git push https://user:hunter2@example.com', '/home/alice/project/.env', 'cat /etc/passwd', 'SECRET_TOKEN', 'deploy.sh', 'AKIA0000'];

const base: OperationRecord = {
  lifecycle: 'post_tool', operations: ['json_compact'], agentId: 'claude-code', sessionId: 'sess-1', toolUseId: 't1', toolName: 'Bash',
  origin: 'command_output', contentType: 'json', mode: 'active', recoverability: 'lossless', before: '{ "a": 1 }', after: '{"a":1}',
  beforeTokens: 10, afterTokens: 4, tokenMethod: 'estimated', stashKeys: [], stashWrites: 0,
};

function seed(dir: string): void {
  const recorder = new StatsRecorder(dir, () => 1_000);
  recorder.tryRecord([
    base,
    { ...base, sessionId: '/home/alice/project/.env', agentId: 'git push https://user:hunter2@example.com', toolName: 'cat /etc/passwd', project: '/home/alice/project' },
    { ...base, contentType: 'cat /etc/passwd', lifecycle: 'SECRET_TOKEN', before: 'AKIA0000 '.repeat(10), after: 'AKIA0000', beforeTokens: 40, afterTokens: 3 },
    { ...base, mode: 'dry_run', beforeTokens: 999, afterTokens: 1 },
  ]);
  recorder.tryRecordRetrieval({ sessionId: 'sess-1', kind: 'retrieve', stashKey: 'k1', viewKind: 'json', project: '/home/alice/project', scope: 'whole', printedBytes: 30, printedTokens: 7, program: 'git' });
  recorder.tryRecordRetrieval({ sessionId: 'sess-1', kind: 'rerun', stashKey: null, viewKind: '/home/alice/project/.env', project: null, scope: 'rerun', printedBytes: 5, printedTokens: 2, program: '/home/alice/bin/deploy.sh --token SECRET_TOKEN' });
  recorder.close();
}

function read(dir: string): MetricPoint[] {
  const db = openStatsDb(dir);
  try {
    return toMetricPoints(operationGroups(db), retrievalGroups(db));
  } finally {
    db.close();
  }
}

const sum = (points: readonly MetricPoint[], metric: MetricPoint['metric']): number =>
  points.filter((p) => p.metric === metric).reduce((total, p) => total + p.value, 0);

describe('telemetry metric points', () => {
  it('carries only allowlisted attribute keys, and no planted command, path or output in any value', () => {
    const dir = tempDir();
    seed(dir);
    const points = read(dir);
    expect(points.length).toBeGreaterThan(0);
    for (const point of points) {
      for (const [key, value] of Object.entries(point.attributes)) {
        expect(ATTRIBUTE_KEYS).toContain(key);
        expect(value).not.toMatch(/[\s/\\]/);
        for (const secret of SECRETS) expect(value).not.toContain(secret);
      }
    }
    const text = toPrometheusText(points, {});
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(points.find((p) => p.metric === 'retrievals' && p.attributes['retrieval.kind'] === 'rerun')?.attributes).toMatchObject({ 'command.family': 'other', 'view.kind': 'other' });
    expect(points.find((p) => p.metric === 'retrievals' && p.attributes['retrieval.kind'] === 'retrieve')?.attributes).toMatchObject({ 'command.family': 'vcs' });
  });

  it('sums to what stats summary reports: gross before/after, retrieved tokens, views by kind, retrievals', () => {
    const dir = tempDir();
    seed(dir);
    const points = read(dir);
    const db = openStatsDb(dir);
    const totals = summarize(db).totals;
    const turns = turnTotals(db);
    db.close();
    expect(sum(points, 'tokensBefore')).toBe(totals.beforeTokens);
    expect(sum(points, 'tokensAfter')).toBe(totals.afterTokens);
    expect(sum(points, 'views')).toBe(totals.records);
    expect(sum(points, 'tokensRetrieved')).toBe(turns.printedTokens);
    expect(sum(points, 'retrievals')).toBe(turns.retrievals + turns.reruns);
    expect(totals.beforeTokens).toBe(60); // the dry-run row's 999 is left out, as summary leaves it out
  });

  it('classes a program by its name only', () => {
    expect(commandFamilyOf('/usr/bin/git')).toBe('vcs');
    expect(commandFamilyOf('npm test --silent')).toBe('package');
    expect(commandFamilyOf('./my-script')).toBe('other');
    expect(commandFamilyOf(null)).toBe('other');
  });

  it('reads OTEL_RESOURCE_ATTRIBUTES as the spec writes it', () => {
    expect(parseResourceAttributes('team=platform,cost_center=cc%2042, bad ,=x')).toEqual({ team: 'platform', cost_center: 'cc 42' });
    expect(parseResourceAttributes(undefined)).toEqual({});
  });
});
