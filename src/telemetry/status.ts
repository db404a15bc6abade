/**
 * What `syt doctor` says about telemetry (issue 26): on or off, where it would send, and when an export was last
 * accepted. Pure: the doctor reads the env and the watermark's timestamp (src/store/stats-export.ts) and passes them.
 */
import type { DoctorCheck } from '../harness/types.ts';

/** Our one switch; off unless a person sets it to 1 (nothing is sent anywhere otherwise). */
export const TELEMETRY_SWITCH = 'TOKENLESS_TELEMETRY';

/** The endpoint the OTLP exporter would use, as the spec orders them: the metrics-specific one first. */
const ENDPOINT_VARS = ['OTEL_EXPORTER_OTLP_METRICS_ENDPOINT', 'OTEL_EXPORTER_OTLP_ENDPOINT'] as const;

export function telemetryOn(env: Readonly<Record<string, string | undefined>>): boolean {
  return env[TELEMETRY_SWITCH] === '1';
}

/** Only the origin: an endpoint's userinfo, path or query may hold a credential and never reaches a terminal. */
function origin(raw: string): string | null {
  try {
    const url = new URL(raw);
    return url.origin === 'null' ? null : url.origin;
  } catch {
    return null;
  }
}

export function telemetryCheck(env: Readonly<Record<string, string | undefined>>, lastExportMs: number | null): DoctorCheck {
  const last = `last export ${lastExportMs === null ? 'never' : new Date(lastExportMs).toISOString().replace(/\.\d{3}Z$/, 'Z')}`;
  if (!telemetryOn(env)) return { name: 'telemetry', status: 'ok', detail: `off (${TELEMETRY_SWITCH}=1 turns it on; nothing is sent); ${last}` };
  const name = ENDPOINT_VARS.find((key) => (env[key] ?? '') !== '');
  if (name === undefined) {
    return { name: 'telemetry', status: 'warn', detail: `on, but no OTEL_EXPORTER_OTLP_ENDPOINT is set (the exporter's default is localhost:4318); ${last}` };
  }
  const where = origin(env[name] ?? '');
  if (where === null) return { name: 'telemetry', status: 'warn', detail: `on, but ${name} is not a URL; ${last}` };
  return { name: 'telemetry', status: 'ok', detail: `on, to ${where} (${name}); ${last}` };
}
