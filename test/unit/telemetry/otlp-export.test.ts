/**
 * `tokenless stats export --otlp` against a loopback receiver that decodes each request with the OpenTelemetry proto
 * definitions (the protobufjs code generated from opentelemetry-proto, shipped by @opentelemetry/otlp-proto-exporter-base),
 * compared with what stats.db holds; a receiver that is down on the first run; every payload scanned for planted text.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { statsExportCommand } from '../../../commands/stats/export.ts';
import { CliError } from '../../../commands/shared/errors.ts';
import { DISPOSITIONS } from '../../../src/protocol/names.ts';
import { takeExportLock } from '../../../src/store/export-lock.ts';
import { lastExport, watermark } from '../../../src/store/stats-export.ts';
import { openStatsDb, StatsRecorder, type OperationRecord } from '../../../src/store/stats.ts';
import { CLI } from '../../helpers/cli.ts';
import { ROOT } from '../../helpers/root.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const tempDir = useTempDirs();

interface Decoder {
  decode(body: Uint8Array): unknown;
  toObject(message: unknown, options: { longs: NumberConstructor }): unknown;
}
const generated = createRequire(import.meta.url)('@opentelemetry/otlp-proto-exporter-base/build/src/generated/root.js') as {
  opentelemetry: { proto: { collector: { metrics: { v1: { ExportMetricsServiceRequest: Decoder } } } } };
};
const Request = generated.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;

interface KeyValue { key: string; value: { stringValue?: string } }
interface Decoded {
  resourceMetrics: {
    resource: { attributes: KeyValue[] };
    scopeMetrics: {
      metrics: {
        name: string;
        unit?: string;
        sum: { dataPoints: { asInt: number; attributes: KeyValue[] }[] };
        histogram?: { aggregationTemporality: number; dataPoints: { count: number; sum: number; bucketCounts: number[]; explicitBounds: number[]; attributes: KeyValue[] }[] };
      }[];
    }[];
  }[];
}

/** Each request's metrics: bodies as http/protobuf sends them, or as http/json does. */
const protoRequests = (bodies: readonly Buffer[]): Decoded[] => bodies.map((body) => Request.toObject(Request.decode(body), { longs: Number }) as Decoded);
const jsonRequests = (bodies: readonly Buffer[]): Decoded[] => bodies.map((body) => JSON.parse(body.toString('utf8')) as Decoded);
const metricsOf = (requests: readonly Decoded[]): Decoded['resourceMetrics'][number]['scopeMetrics'][number]['metrics'] =>
  requests.flatMap((request) => request.resourceMetrics.flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics)));
/** A counter's total over every request (http/json carries asInt as a string, hence Number). */
const sumOf = (requests: readonly Decoded[], name: string): number =>
  metricsOf(requests)
    .filter((metric) => metric.name === name)
    .flatMap((metric) => metric.sum.dataPoints)
    .reduce((total, point) => total + Number(point.asInt), 0);

const SECRETS = ['git push https://user:hunter2@example.com', '/home/alice/project', 'cat /etc/passwd', 'AKIA0000', 'deploy.sh'];

const base: OperationRecord = {
  lifecycle: 'post_tool', operations: ['json_compact'], agentId: 'claude-code', sessionId: 'sess-1', toolUseId: 't1', toolName: 'Bash',
  origin: 'command_output', contentType: 'json', mode: 'active', recoverability: 'lossless', before: '{ "a": 1 }', after: '{"a":1}',
  beforeTokens: 10, afterTokens: 4, tokenMethod: 'estimated', stashKeys: [], stashWrites: 0,
};

function seed(dir: string, count: number): void {
  const recorder = new StatsRecorder(dir, () => 1_000);
  const records = Array.from({ length: count }, (_, i): OperationRecord =>
    i % 2 === 0
      ? { ...base, beforeTokens: 10 + (i % 7), afterTokens: 3 }
      : { ...base, toolName: 'cat /etc/passwd', project: '/home/alice/project', before: 'AKIA0000 '.repeat(4), after: 'AKIA0000', contentType: 'cat /etc/passwd' },
  );
  recorder.tryRecord(records);
  recorder.tryRecordRetrieval({ sessionId: 'sess-1', kind: 'rerun', stashKey: null, viewKind: 'json', project: '/home/alice/project', scope: 'rerun', printedBytes: 5, printedTokens: 2, program: '/home/alice/bin/deploy.sh' });
  recorder.close();
}

function dbTotals(dir: string): { before: number; after: number } {
  const db = openStatsDb(dir);
  try {
    return db.prepare<[], { before: number; after: number }>("SELECT SUM(before_tokens) AS before, SUM(after_tokens) AS after FROM operations WHERE mode = 'active'").get() ?? { before: 0, after: 0 };
  } finally {
    db.close();
  }
}

const servers: Server[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function receiver(port: number): Promise<{ bodies: Buffer[]; contentTypes: string[] }> {
  const bodies: Buffer[] = [];
  const contentTypes: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks));
      contentTypes.push(String(req.headers['content-type']) + ' ' + String(req.headers['x-team']));
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  servers.push(server);
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ bodies, contentTypes })));
}

function useEnv(dir: string, port: number): void {
  vi.stubEnv('TOKENLESS_DATA_DIR', dir);
  vi.stubEnv('TOKENLESS_TELEMETRY', '1');
  vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', `http://127.0.0.1:${port}`);
  vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', 'http/protobuf');
  vi.stubEnv('OTEL_EXPORTER_OTLP_HEADERS', 'x-team=platform');
  vi.stubEnv('OTEL_EXPORTER_OTLP_TIMEOUT', '2000');
  vi.stubEnv('OTEL_RESOURCE_ATTRIBUTES', 'team=platform,cost_center=cc-42');
}

const quietly = async (run: () => Promise<void>): Promise<void> => {
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    await run();
  } finally {
    write.mockRestore();
  }
};

describe('stats export --otlp', () => {
  it('is off without TOKENLESS_TELEMETRY=1 (exit 1, nothing sent)', async () => {
    vi.stubEnv('TOKENLESS_TELEMETRY', '');
    await expect(statsExportCommand({ otlp: true })).rejects.toSatisfy((error) => error instanceof CliError && error.exitCode === 1 && /telemetry is off/.test(error.message));
  });

  it('loses nothing while the collector is down, then sends each record exactly once, decoded equal to stats.db', async () => {
    const dir = tempDir();
    seed(dir, 3_000);
    const port = await freePort();
    useEnv(dir, port);

    // Nothing listens yet: the export fails and the watermark stays put.
    await expect(quietly(() => statsExportCommand({ otlp: true, batch: '1000' }))).rejects.toBeInstanceOf(CliError);
    const before = openStatsDb(dir);
    expect([watermark(before, 'operations'), lastExport(before)]).toEqual([0, null]);
    before.close();

    const got = await receiver(port);
    await quietly(() => statsExportCommand({ otlp: true, batch: '1000' }));
    await quietly(() => statsExportCommand({ otlp: true, batch: '1000' })); // nothing pending: nothing sent again
    expect(got.bodies.length).toBe(4); // three operation batches of 1,000 ids, one retrieval batch
    expect(got.contentTypes.every((line) => line === 'application/x-protobuf platform')).toBe(true);

    const decoded = protoRequests(got.bodies);
    const totals = dbTotals(dir);
    expect(sumOf(decoded, 'tokenless.tokens.before')).toBe(totals.before);
    expect(sumOf(decoded, 'tokenless.tokens.after')).toBe(totals.after);
    expect(sumOf(decoded, 'tokenless.views')).toBe(3_000);
    expect(sumOf(decoded, 'tokenless.retrievals')).toBe(1);
    const resource = decoded[0]?.resourceMetrics[0]?.resource.attributes.map((kv) => `${kv.key}=${kv.value.stringValue ?? ''}`);
    expect(resource).toEqual(expect.arrayContaining(['team=platform', 'cost_center=cc-42', 'service.name=tokenless']));

    const after = openStatsDb(dir);
    expect(watermark(after, 'operations')).toBe(3_000);
    expect(lastExport(after)).not.toBeNull();
    after.close();

    // The whole payload, not only the attributes: no planted command, path or output anywhere in it.
    for (const body of got.bodies) for (const secret of SECRETS) expect(body.includes(secret)).toBe(false);
  });

  it('the built CLI sends http/json per OTEL_EXPORTER_OTLP_PROTOCOL to OTEL_EXPORTER_OTLP_METRICS_ENDPOINT (the bundle loads the SDK)', async () => {
    const dir = tempDir();
    seed(dir, 10);
    const port = await freePort();
    const got = await receiver(port);
    const env = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir, TOKENLESS_DATA_DIR: dir, TOKENLESS_TELEMETRY: '1',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: `http://127.0.0.1:${port}/v1/metrics`,
    };
    const child = spawn(process.execPath, [CLI, 'stats', 'export', '--otlp', '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const status = await new Promise((resolve) => child.on('close', resolve));
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ exported: { operations: 10, retrievals: 1 }, requests: 2 });
    expect(got.contentTypes[0]).toBe('application/json undefined');
    expect(sumOf(jsonRequests(got.bodies), 'tokenless.views')).toBe(10);
    for (const body of got.bodies) for (const secret of SECRETS) expect(body.includes(secret)).toBe(false);
  });

  it('hook calls made while telemetry is on: a latency histogram and calls by outcome, kept while the collector is down, sent once', async () => {
    const dir = tempDir();
    const port = await freePort();
    useEnv(dir, port);
    const hook = (lifecycle: string, input: string): number | null =>
      spawnSync(process.execPath, [CLI, 'hook', lifecycle], { input, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir, TOKENLESS_DATA_DIR: dir, TOKENLESS_TELEMETRY: '1' } }).status;
    const grep = readFileSync(join(ROOT, 'test/fixtures/claude-code-hook-samples/PostToolUse__Grep.json'), 'utf8');
    const push = JSON.stringify({ session_id: 's', transcript_path: '/home/alice/project/t.jsonl', cwd: '/home/alice/project', permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: SECRETS[0] }, tool_use_id: 't' });
    expect([hook('post_tool', grep), hook('pre_tool', push), hook('pre_tool', '{not json')]).toEqual([0, 0, 2]);
    // Without the switch, a hook writes nothing.
    spawnSync(process.execPath, [CLI, 'hook', 'pre_tool'], { input: push, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir, TOKENLESS_DATA_DIR: dir } });
    expect(readFileSync(join(dir, 'hook-calls.jsonl'), 'utf8').trim().split('\n')).toHaveLength(3);

    await expect(quietly(() => statsExportCommand({ otlp: true }))).rejects.toBeInstanceOf(CliError);
    expect(readdirSync(dir).filter((name) => name.endsWith('.claimed'))).toHaveLength(1);
    expect(hook('post_tool', grep)).toBe(0); // a call after the failed export goes to a new log

    const got = await receiver(port);
    await quietly(() => statsExportCommand({ otlp: true }));
    await quietly(() => statsExportCommand({ otlp: true })); // nothing pending: nothing sent again
    expect(readdirSync(dir).filter((name) => name.startsWith('hook-calls'))).toEqual([]);
    const metrics = metricsOf(protoRequests(got.bodies));
    const histogram = metrics.filter((metric) => metric.name === 'tokenless.hook.latency');
    expect(histogram.every((metric) => metric.unit === 'ms')).toBe(true);
    const points = histogram.flatMap((metric) => metric.histogram?.dataPoints ?? []);
    expect(points.reduce((total, point) => total + point.count, 0)).toBe(4);
    for (const point of points) {
      expect(point.bucketCounts.reduce((a, b) => a + b, 0)).toBe(point.count);
      expect(point.sum / point.count).toBeGreaterThan(1);
    }
    const calls = metrics.filter((metric) => metric.name === 'tokenless.hook.calls').flatMap((metric) => metric.sum.dataPoints);
    const byOutcome = (outcome: string): number =>
      calls.filter((point) => point.attributes.some((kv) => kv.key === 'outcome' && kv.value.stringValue === outcome)).reduce((total, point) => total + point.asInt, 0);
    expect([byOutcome('answered') + byOutcome('passthrough'), byOutcome('malformed')]).toEqual([3, 1]);
    // Why each engine call ended: a fixed set of names, never the free-text reason.
    const dispositions = new Set(calls.flatMap((point) => point.attributes.filter((kv) => kv.key === 'disposition').map((kv) => kv.value.stringValue)));
    expect(dispositions.size).toBeGreaterThan(0);
    for (const name of dispositions) expect(DISPOSITIONS).toContain(name);
    for (const body of got.bodies) for (const secret of [...SECRETS, 'hunter2', 'alice']) expect(body.includes(secret)).toBe(false);
  });

  it('tokenless serve exports on OTEL_METRIC_EXPORT_INTERVAL while telemetry is on, and once more when it stops', async () => {
    const dir = tempDir();
    seed(dir, 10);
    const [collector, hookPort] = [await freePort(), await freePort()];
    const got = await receiver(collector);
    const env = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir, TOKENLESS_DATA_DIR: dir, TOKENLESS_TELEMETRY: '1', OTEL_METRIC_EXPORT_INTERVAL: '1000',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector}`,
    };
    const child = spawn(process.execPath, [CLI, 'serve', '--port', String(hookPort)], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const views = (): number => sumOf(jsonRequests(got.bodies), 'tokenless.views');
    for (let waited = 0; views() < 10 && waited < 15_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(views(), stderr).toBe(10);
    // Recorded after the first export: the export on stop sends it.
    writeFileSync(join(dir, 'hook-calls.jsonl'), '{"ts":5,"h":"claude-code","l":"post_tool","ms":42,"o":"passthrough"}\n');
    child.kill('SIGTERM');
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(0);
    expect(readdirSync(dir).filter((name) => name.startsWith('hook-calls')), stderr).toEqual([]);
    expect(views()).toBe(10);
  }, 30_000);

  it('one exporter per data dir: a second waits its turn with an error; a lock left by a process that is gone is taken over', () => {
    const dir = tempDir();
    const first = takeExportLock(dir);
    expect(first).not.toBeNull();
    expect(takeExportLock(dir)).toBeNull();
    first?.release();
    writeFileSync(join(dir, 'export.lock'), '999999999');
    const taken = takeExportLock(dir);
    expect(taken).not.toBeNull();
    taken?.release();
  });

  it('SessionEnd starts a detached export and answers at once with nothing; with telemetry off it starts none', async () => {
    const dir = tempDir();
    seed(dir, 5);
    const port = await freePort();
    const got = await receiver(port);
    const event = readFileSync(join(ROOT, 'test/fixtures/claude-code-hook-samples/SessionEnd.json'), 'utf8');
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir, TOKENLESS_DATA_DIR: dir, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` };
    const off = spawnSync(process.execPath, [CLI, 'hook', 'session'], { input: event, env });
    expect([off.status, off.stdout.toString()]).toEqual([0, '']);
    const on = spawnSync(process.execPath, [CLI, 'hook', 'session'], { input: event, env: { ...env, TOKENLESS_TELEMETRY: '1' } });
    expect([on.status, on.stdout.toString()]).toEqual([0, '']);
    // The export sends the hook-call log first (this SessionEnd call's own line, when it was appended in time) and the
    // views after it, in a second request: wait for the views, not for the first request.
    const views = (): number => sumOf(jsonRequests(got.bodies), 'tokenless.views');
    for (let waited = 0; views() < 5 && waited < 15_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(got.bodies.length).toBeGreaterThan(0);
    expect(views()).toBe(5);
  }, 30_000);

  it('an export of hook calls alone is what syt doctor reports as the last export', async () => {
    const dir = tempDir();
    seed(dir, 1);
    const port = await freePort();
    useEnv(dir, port);
    await receiver(port);
    await quietly(() => statsExportCommand({ otlp: true }));
    const exportedAt = (): number | null => {
      const db = openStatsDb(dir);
      try {
        return lastExport(db);
      } finally {
        db.close();
      }
    };
    const first = exportedAt();
    expect(first).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    writeFileSync(join(dir, 'hook-calls.jsonl'), '{"ts":5,"h":"codex","l":"pre_tool","ms":40,"o":"answered","d":"applied"}\n');
    await quietly(() => statsExportCommand({ otlp: true }));
    expect(exportedAt()).toBeGreaterThan(first ?? Infinity);
  });
});

