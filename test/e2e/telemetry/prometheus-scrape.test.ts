/**
 * Debian's Prometheus scraping `tokenless serve` (issue 26, item 4): the series exist and their sums equal
 * `tokenless stats summary --json`. CI installs Prometheus (scripts/ci/setup-prometheus.sh); elsewhere the test skips.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StatsRecorder, type OperationRecord } from '../../../src/store/stats.ts';
import { runCli } from '../../helpers/cli.ts';
import { useTempDirs } from '../../helpers/temp.ts';
import { startServe, type ServeProcess } from '../claude/serve-process.ts';

const PROMETHEUS = '/usr/bin/prometheus';
const tempDir = useTempDirs();
const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops) await stop();
});

const base: OperationRecord = {
  lifecycle: 'post_tool', operations: ['json_compact'], agentId: 'claude-code', sessionId: 'sess-1', toolUseId: 't1', toolName: 'Bash',
  origin: 'command_output', contentType: 'json', mode: 'active', recoverability: 'lossless', before: '{ "a": 1 }', after: '{"a":1}',
  beforeTokens: 120, afterTokens: 30, tokenMethod: 'estimated', stashKeys: [], stashWrites: 0,
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

async function query(api: string, expr: string): Promise<number | null> {
  const response = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(expr)}`).catch(() => null);
  if (response === null || !response.ok) return null;
  const body = (await response.json()) as { data?: { result?: { value?: [number, string] }[] } };
  const value = body.data?.result?.[0]?.value?.[1];
  return value === undefined ? null : Number(value);
}

async function until<T>(read: () => Promise<T | null>, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() > end) throw new Error('timed out waiting for Prometheus');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

// A skipped test says why, in the test list and on the console.
it.runIf(!existsSync(PROMETHEUS))('skips the Prometheus scrape test: no Prometheus at /usr/bin/prometheus', () => {
  console.warn(`telemetry: ${PROMETHEUS} is missing; Prometheus scrape test skipped. Install it with: bash scripts/ci/setup-prometheus.sh`);
});

describe.skipIf(!existsSync(PROMETHEUS))('Prometheus scraping tokenless serve', () => {
  it('sees every series, and their sums are what stats summary --json reports', async () => {
    const dataDir = tempDir();
    const recorder = new StatsRecorder(dataDir, () => Date.now());
    recorder.tryRecord([base, { ...base, sessionId: 'sess-2', contentType: 'diff', beforeTokens: 500, afterTokens: 80 }, { ...base, mode: 'dry_run', beforeTokens: 900 }]);
    recorder.tryRecordRetrieval({ sessionId: 'sess-1', kind: 'retrieve', stashKey: 'k1', viewKind: 'json', project: null, scope: 'whole', printedBytes: 40, printedTokens: 11, program: 'git' });
    recorder.tryRecordRetrieval({ sessionId: 'sess-2', kind: 'rerun', stashKey: null, viewKind: 'diff', project: null, scope: 'rerun', printedBytes: 9, printedTokens: 3, program: 'npm' });
    recorder.close();
    const env = { TOKENLESS_DATA_DIR: dataDir, HOME: dataDir };
    const serve: ServeProcess = await startServe(env);
    stops.push(() => serve.stop());

    const promDir = tempDir();
    const promPort = await freePort();
    const config = join(promDir, 'prometheus.yml');
    writeFileSync(config, `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: tokenless\n    static_configs:\n      - targets: ['127.0.0.1:${serve.port}']\n`);
    const prometheus: ChildProcess = spawn(PROMETHEUS, [`--config.file=${config}`, `--storage.tsdb.path=${join(promDir, 'data')}`, `--web.listen-address=127.0.0.1:${promPort}`], { stdio: 'ignore' });
    stops.push(
      () =>
        new Promise((done) => {
          if (prometheus.exitCode !== null) return done();
          prometheus.once('exit', () => done());
          prometheus.kill('SIGTERM');
        }),
    );
    const api = `http://127.0.0.1:${promPort}`;

    const summary = JSON.parse(runCli(['stats', 'summary', '--json'], { env }).stdout) as {
      totals: { beforeTokens: number; afterTokens: number; records: number };
      retrievals: { retrievals: number; reruns: number; printedTokens: number };
      byViewKind: { viewKind: string; views: number }[];
    };
    const before = await until(() => query(api, 'sum(tokenless_tokens_before_total)'), 30_000);
    expect(before).toBe(summary.totals.beforeTokens);
    expect(await query(api, 'sum(tokenless_tokens_after_total)')).toBe(summary.totals.afterTokens);
    expect(await query(api, 'sum(tokenless_tokens_retrieved_total)')).toBe(summary.retrievals.printedTokens);
    expect(await query(api, 'sum(tokenless_retrievals_total)')).toBe(summary.retrievals.retrievals + summary.retrievals.reruns);
    for (const kind of summary.byViewKind) {
      expect(await query(api, `sum(tokenless_views_total{view_kind="${kind.viewKind}"})`)).toBe(kind.views);
    }
    expect(await query(api, 'sum(tokenless_views_total{harness="claude-code",lifecycle="post_tool"})')).toBe(summary.totals.records);
    expect(summary.totals.beforeTokens).toBe(620);
  }, 60_000);
});
