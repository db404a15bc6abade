import { readFileSync } from 'node:fs';
import * as z from 'zod/mini';
import { loadConfig } from '../src/config/config.ts';
import { KEEP_WARM_DEFAULTS, type KeepWarmOptions } from '../src/gateway/keep-warm.ts';
import { registerKeepWarm, unregisterKeepWarm } from '../src/gateway/keep-warm-registry.ts';
import { createGateway } from '../src/gateway/server.ts';
import { POLICY_DEFAULTS } from '../src/gateway/session-policy.ts';
import { GatewayCounters } from '../src/telemetry/gateway.ts';
import { PROMETHEUS_CONTENT_TYPE } from '../src/telemetry/prometheus.ts';
import { scrapeText } from '../src/telemetry/scrape.ts';
import { usageError } from './shared/errors.ts';
import { nonNegativeOption, numberOption, parseOptions, portOption } from './shared/options.ts';
import { startIntervalExport } from './shared/interval-export.ts';

const OnOff = z.optional(z.enum(['on', 'off']));
const Options = z.object({
  port: portOption,
  upstream: z.optional(z.string()),
  schema: z._default(z.enum(['off', 'lossless']), 'off'),
  fold: OnOff,
  toolTiers: OnOff,
  keepWarm: z.optional(z.boolean()),
  keepWarmCap: z.optional(nonNegativeOption),
  keepWarmIdle: z.optional(nonNegativeOption),
});

/**
 * Test only: a file holding a number of milliseconds added to the clock the gateway judges cache expiry by, read at
 * every request, so a test can simulate a pause longer than the cache TTL without waiting for it.
 */
export const CLOCK_OFFSET_ENV = 'TOKENLESS_GATEWAY_TEST_CLOCK_OFFSET_FILE';

/** Test only: how often (real milliseconds) keep-warm looks for due pings, so a moved clock is seen at once. */
export const KEEP_WARM_TICK_ENV = 'TOKENLESS_GATEWAY_TEST_KEEP_WARM_TICK_MS';

/** `tokenless gateway`: runs until SIGINT/SIGTERM; logs its address on stderr. */
export async function gatewayCommand(raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, 'gateway');
  const port = Number(options.port);
  let upstream: URL;
  try {
    upstream = new URL(options.upstream ?? process.env['TOKENLESS_UPSTREAM'] ?? 'https://api.anthropic.com');
  } catch {
    throw usageError(`tokenless gateway: --upstream is not a URL: ${options.upstream ?? ''}`);
  }
  const config = loadConfig();
  const policies = {
    fold: options.fold === undefined ? POLICY_DEFAULTS.fold : options.fold === 'on',
    toolTiers: options.toolTiers === undefined ? POLICY_DEFAULTS.toolTiers : options.toolTiers === 'on',
  };
  if (options.keepWarm !== true && (options.keepWarmCap !== undefined || options.keepWarmIdle !== undefined)) {
    throw usageError('tokenless gateway: --keep-warm-cap and --keep-warm-idle go with --keep-warm');
  }
  const tick = Number(process.env[KEEP_WARM_TICK_ENV]);
  const keepWarm: KeepWarmOptions | undefined =
    options.keepWarm === true
      ? {
          idleLimitMs: numberOption(options.keepWarmIdle, KEEP_WARM_DEFAULTS.idleLimitMs / 60_000) * 60_000,
          tickMs: Number.isInteger(tick) && tick > 0 ? tick : KEEP_WARM_DEFAULTS.tickMs,
          ...(options.keepWarmCap === undefined ? {} : { capDollars: Number(options.keepWarmCap) }),
        }
      : undefined;
  const counters = new GatewayCounters();
  let bound = port;
  const server = createGateway({
    upstream,
    dataDir: config.dataDir,
    schema: options.schema,
    policies,
    ...(keepWarm === undefined ? {} : { keepWarm }),
    now: clock(process.env[CLOCK_OFFSET_ENV]),
    onRecord: (record) => counters.add(record, Date.now()),
    // The same page as `tokenless serve`'s (stats.db, same names), plus what only the gateway sees.
    metrics: () => ({ contentType: PROMETHEUS_CONTENT_TYPE, body: scrapeText(config.dataDir, process.env, counters.points()) }),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      bound = typeof address === 'object' && address !== null ? address.port : port;
      if (keepWarm !== undefined) registerKeepWarm(config.dataDir, bound);
      process.stderr.write(`tokenless gateway listening on http://127.0.0.1:${bound} -> ${upstream.origin} (Prometheus at /metrics; schema: ${options.schema}, fold: ${policies.fold ? 'on' : 'off'}, tool tiers: ${policies.toolTiers ? 'on' : 'off'}, keep-warm: ${keepWarm === undefined ? 'off' : 'on'})\n`);
      resolve();
    });
  });
  const exporting = startIntervalExport(config.dataDir, process.env, (line) => process.stderr.write(`tokenless gateway: ${line}\n`));
  await new Promise<void>((resolve) => {
    const stop = () => server.close(() => resolve());
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await exporting?.stop();
  if (keepWarm !== undefined) unregisterKeepWarm(config.dataDir, bound);
}

function clock(offsetFile: string | undefined): () => number {
  if (offsetFile === undefined) return Date.now;
  return () => {
    let offset = 0;
    try {
      offset = Number(readFileSync(offsetFile, 'utf8').trim()) || 0;
    } catch {
      // No file yet: no offset.
    }
    return Date.now() + offset;
  };
}
