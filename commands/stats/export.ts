/**
 * `tokenless stats export --otlp` (issue 26): sends what stats.db recorded since the last accepted export to an OTLP
 * collector, for a cron or CI job. Off unless a person sets TOKENLESS_TELEMETRY=1; everything else is the standard
 * OTEL_* variables (endpoint, protocol, headers, timeout, resource attributes), read by the OpenTelemetry SDK itself.
 * The SDK is imported here only, lazily: no hook process ever loads it. Each batch moves a watermark in stats.db only
 * once the collector accepted it, so a collector that is down loses nothing and no record is sent twice.
 */
import type { HistogramMetricData, MetricData, SumMetricData } from '@opentelemetry/sdk-metrics';
import * as z from 'zod/mini';
import { loadConfig } from '../../src/config/config.ts';
import { openStatsReader } from '../../src/store/stats-client.ts';
import { advanceWatermark, noteHookCallsExport, operationGroups, pendingRange, retrievalGroups, type ExportTable } from '../../src/store/stats-export.ts';
import { openStatsDb } from '../../src/store/stats.ts';
import { takeExportLock } from '../../src/store/export-lock.ts';
import { claimHookCalls, readClaimed, releaseClaimed } from '../../src/store/hook-calls-log.ts';
import { hookCallPoints, LATENCY_BOUNDARIES_MS, parseHookCalls, type LatencyPoint } from '../../src/telemetry/hook-calls.ts';
import { HOOK_LATENCY, METRICS, parseResourceAttributes, toMetricPoints, type MetricKey, type MetricPoint } from '../../src/telemetry/metrics.ts';
import { CliError, usageError } from '../shared/errors.ts';
import { parseOptions } from '../shared/options.ts';
import { digits, toInt, writeJson } from '../shared/stats-common.ts';
import { TELEMETRY_SWITCH, telemetryOn } from '../../src/telemetry/status.ts';

declare const __VERSION__: string;

/** Ids per request: one grouped read and one request each, so memory stays bounded whatever the backlog. */
const DEFAULT_BATCH = 20_000;

const Options = z.object({ otlp: z.optional(z.boolean()), batch: z.optional(digits), within: z.optional(digits), json: z.optional(z.boolean()) });

type Protocol = 'http/json' | 'http/protobuf';

function protocolOf(env: NodeJS.ProcessEnv): Protocol {
  const raw = env['OTEL_EXPORTER_OTLP_METRICS_PROTOCOL'] ?? env['OTEL_EXPORTER_OTLP_PROTOCOL'] ?? 'http/protobuf';
  if (raw === 'http/json' || raw === 'http/protobuf') return raw;
  throw usageError(`tokenless stats export: OTEL_EXPORTER_OTLP_PROTOCOL=${raw} is not supported; use http/protobuf or http/json`);
}

interface Sender {
  send(points: readonly MetricPoint[], latency?: readonly LatencyPoint[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * The SDK packages are CommonJS: in the bundled CLI (an ESM chunk) a dynamic import of one gives its exports under
 * `default`, under vitest it gives them by name. Either way, the exports.
 */
function cjs<T extends object>(module: T): T {
  const inner = (module as { default?: unknown }).default;
  return typeof inner === 'object' && inner !== null ? (inner as T) : module;
}

async function otlpSender(protocol: Protocol, env: NodeJS.ProcessEnv): Promise<Sender> {
  const [{ ValueType }, { ExportResultCode }, { AggregationTemporality, DataPointType }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/api'), // ESM, and its default export is another object: named exports as they are
    import('@opentelemetry/core').then(cjs),
    import('@opentelemetry/sdk-metrics').then(cjs),
    import('@opentelemetry/resources').then(cjs),
  ]);
  const { OTLPMetricExporter } =
    protocol === 'http/json' ? cjs(await import('@opentelemetry/exporter-metrics-otlp-http')) : cjs(await import('@opentelemetry/exporter-metrics-otlp-proto'));
  const exporter = new OTLPMetricExporter({ temporalityPreference: AggregationTemporality.DELTA });
  const resource = resourceFromAttributes({ 'service.name': 'tokenless', ...parseResourceAttributes(env['OTEL_RESOURCE_ATTRIBUTES']) });
  const version = typeof __VERSION__ === 'string' ? __VERSION__ : 'dev';
  const hr = (ms: number): [number, number] => [Math.floor(ms / 1000), (ms % 1000) * 1_000_000];
  return {
    send: (points, latency = []) =>
      new Promise((resolve, reject) => {
        const sums = (Object.keys(METRICS) as MetricKey[])
          .map((key): SumMetricData => ({
            descriptor: { name: METRICS[key].name, description: METRICS[key].description, unit: METRICS[key].unit, valueType: ValueType.INT },
            aggregationTemporality: AggregationTemporality.DELTA,
            dataPointType: DataPointType.SUM,
            isMonotonic: true,
            dataPoints: points
              .filter((p) => p.metric === key)
              .map((p) => ({ startTime: hr(p.firstTs), endTime: hr(p.lastTs), attributes: { ...p.attributes }, value: p.value })),
          }))
          .filter((metric) => metric.dataPoints.length > 0);
        const histogram: HistogramMetricData = {
          descriptor: { name: HOOK_LATENCY.name, description: HOOK_LATENCY.description, unit: HOOK_LATENCY.unit, valueType: ValueType.DOUBLE },
          aggregationTemporality: AggregationTemporality.DELTA,
          dataPointType: DataPointType.HISTOGRAM,
          dataPoints: latency.map((p) => ({
            startTime: hr(p.firstTs),
            endTime: hr(p.lastTs),
            attributes: { ...p.attributes },
            value: { buckets: { boundaries: [...LATENCY_BOUNDARIES_MS], counts: [...p.bucketCounts] }, count: p.count, sum: p.sum, min: p.min, max: p.max },
          })),
        };
        const metrics: MetricData[] = latency.length > 0 ? [...sums, histogram] : sums;
        exporter.export({ resource, scopeMetrics: [{ scope: { name: 'save-your-tokens', version }, metrics }] }, (result) =>
          result.code === ExportResultCode.SUCCESS ? resolve() : reject(result.error ?? new Error('the collector refused the export')),
        );
      }),
    close: () => exporter.shutdown(),
  };
}

type Exported = Record<ExportTable | 'hook_calls', number>;

export interface ExportOutcome {
  readonly exported: Exported;
  readonly requests: number;
}

/** A hook that opened the log just before the exporter renamed it appends within microseconds; wait that out. */
const CLAIM_SETTLE_MS = 100;

export async function statsExportCommand(raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, 'stats export');
  if (options.otlp !== true) throw usageError('tokenless stats export: name the exporter: --otlp (the only one)');
  if (!telemetryOn(process.env)) {
    throw new CliError(`tokenless stats export: telemetry is off; set ${TELEMETRY_SWITCH}=1 to send metrics to the OTLP endpoint (nothing is sent unless you do)`);
  }
  if (options.within !== undefined) stopAfter(Math.max(1, toInt(options.within, 60)));
  const outcome = await exportPending(loadConfig().dataDir, process.env, Math.max(1, toInt(options.batch, DEFAULT_BATCH)));
  report(outcome, options.json === true);
}

/**
 * `--within`: the export at a session's end runs detached and must not linger behind a collector that hangs. Batches
 * already accepted have moved their watermark; one stopped between the collector's answer and the watermark is sent
 * again by the next export (the one case where a record can arrive twice).
 */
function stopAfter(seconds: number): void {
  setTimeout(() => {
    process.stderr.write(`tokenless stats export: stopped after ${seconds} s (--within); what was not sent stays pending for the next export\n`);
    process.exit(1);
  }, seconds * 1000).unref();
}

/**
 * Sends everything pending (hook calls, then stats rows past their watermarks); throws a CliError naming what was sent
 * when the collector refuses, and when another export holds the data dir's export lock (two exporters would send the
 * same records). Shared by the command and the interval export of `tokenless serve` and the gateway.
 */
export async function exportPending(dataDir: string, env: NodeJS.ProcessEnv, batch = DEFAULT_BATCH): Promise<ExportOutcome> {
  const protocol = protocolOf(env);
  const lock = takeExportLock(dataDir);
  if (lock === null) throw new CliError('tokenless stats export: another export of this data dir is running; nothing sent by this one');
  try {
    return await exportUnderLock(dataDir, env, protocol, batch);
  } finally {
    lock.release();
  }
}

async function exportUnderLock(dataDir: string, env: NodeJS.ProcessEnv, protocol: Protocol, batch: number): Promise<ExportOutcome> {
  const outcome: { exported: Exported; requests: number } = { exported: { operations: 0, retrievals: 0, hook_calls: 0 }, requests: 0 };
  const claimed = claimHookCalls(dataDir, Date.now());
  // No stats.db yet: no view recorded (and no file created by an export); hook calls may still be pending.
  const probe = openStatsReader(dataDir);
  probe?.close();
  if (probe === null && claimed.length === 0) return outcome;
  const sender = await otlpSender(protocol, env);
  const refused = (error: unknown): CliError =>
    new CliError(
      `tokenless stats export: the collector did not accept the export (${error instanceof Error ? error.message : String(error)}); ` +
        `${outcome.exported.operations + outcome.exported.retrievals + outcome.exported.hook_calls} record(s) sent, the rest stay pending for the next export`,
    );
  try {
    if (claimed.length > 0) await new Promise((resolve) => setTimeout(resolve, CLAIM_SETTLE_MS));
    for (const file of claimed) {
      const text = readClaimed(file);
      if (text === null) continue;
      const { calls } = parseHookCalls(text);
      const { latency, counts } = hookCallPoints(calls);
      try {
        if (calls.length > 0) await sender.send(counts, latency);
      } catch (error) {
        throw refused(error);
      }
      if (calls.length > 0) outcome.requests += 1;
      releaseClaimed(file);
      outcome.exported.hook_calls += calls.length;
    }
    if (probe === null) return outcome;
    const db = openStatsDb(dataDir);
    if (outcome.exported.hook_calls > 0) noteHookCallsExport(db, Date.now());
    await exportStats(db, sender, batch, outcome, refused);
  } finally {
    await sender.close().catch(() => undefined);
  }
  return outcome;
}

async function exportStats(db: ReturnType<typeof openStatsDb>, sender: Sender, batch: number, outcome: { exported: Exported; requests: number }, refused: (error: unknown) => CliError): Promise<void> {
  try {
    for (const table of ['operations', 'retrievals'] as const) {
      for (let range = pendingRange(db, table, batch); range !== null; range = pendingRange(db, table, batch)) {
        const operations = table === 'operations' ? operationGroups(db, range) : [];
        const retrievals = table === 'retrievals' ? retrievalGroups(db, range) : [];
        const points = toMetricPoints(operations, retrievals);
        try {
          if (points.length > 0) await sender.send(points);
        } catch (error) {
          throw refused(error);
        }
        if (points.length > 0) outcome.requests += 1;
        advanceWatermark(db, table, range.to, Date.now());
        outcome.exported[table] += [...operations, ...retrievals].reduce((total, group) => total + group.records, 0);
      }
    }
  } finally {
    db.close();
  }
}

function report(outcome: ExportOutcome, json: boolean): void {
  if (json) return writeJson(outcome);
  process.stdout.write(
    `exported ${outcome.exported.operations} operation(s), ${outcome.exported.retrievals} retrieval(s) and ${outcome.exported.hook_calls} hook call(s) in ${outcome.requests} request(s)\n`,
  );
}
