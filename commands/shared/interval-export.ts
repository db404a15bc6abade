/**
 * The OTLP export on an interval, for the processes that outlive a hook call (`tokenless serve`, the gateway; issue
 * 26). Only while TOKENLESS_TELEMETRY=1; every OTEL_METRIC_EXPORT_INTERVAL ms (the SDK's variable, 60 s by default),
 * never two at once, and once more, bounded, when the process stops. A refused export is one line on the log and is
 * retried at the next tick: what it did not send stays pending.
 */
import { telemetryOn } from '../../src/telemetry/status.ts';

const DEFAULT_INTERVAL_MS = 60_000;
const MIN_INTERVAL_MS = 1_000;
/** How long stopping waits for a last export: a person pressing Ctrl-C should not wait on a collector that is down. */
const FINAL_EXPORT_MS = 5_000;

export function exportIntervalMs(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env['OTEL_METRIC_EXPORT_INTERVAL'];
  if (raw === undefined || !/^[0-9]{1,9}$/.test(raw)) return DEFAULT_INTERVAL_MS;
  return Math.max(MIN_INTERVAL_MS, Number(raw));
}

export interface IntervalExport {
  stop(): Promise<void>;
}

export function startIntervalExport(dataDir: string, env: NodeJS.ProcessEnv, log: (line: string) => void): IntervalExport | null {
  if (!telemetryOn(env)) return null;
  let running: Promise<void> | null = null;
  const tick = (): Promise<void> => {
    running ??= import('../stats/export.ts')
      .then(({ exportPending }) => exportPending(dataDir, env))
      .then(
        (outcome) => {
          const sent = outcome.exported.operations + outcome.exported.retrievals + outcome.exported.hook_calls;
          if (sent > 0) log(`exported ${sent} record(s) over OTLP`);
        },
        (error: unknown) => log(error instanceof Error ? error.message : String(error)),
      )
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => void tick(), exportIntervalMs(env));
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
      let bound: NodeJS.Timeout | undefined;
      await Promise.race([tick(), new Promise<void>((resolve) => (bound = setTimeout(resolve, FINAL_EXPORT_MS)))]);
      clearTimeout(bound);
    },
  };
}
