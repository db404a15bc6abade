import { describe, expect, it } from 'vitest';
import { telemetryCheck } from '../../../src/telemetry/status.ts';

describe('telemetryCheck (syt doctor)', () => {
  it('is off unless TOKENLESS_TELEMETRY=1, and says so even with an endpoint set', () => {
    expect(telemetryCheck({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, null)).toEqual({ name: 'telemetry', status: 'ok', detail: 'off (TOKENLESS_TELEMETRY=1 turns it on; nothing is sent); last export never' });
    expect(telemetryCheck({ TOKENLESS_TELEMETRY: 'true' }, null).detail).toMatch(/^off/);
  });

  it('names the endpoint by origin only (never its credentials or path), the metrics one first, and the last export', () => {
    const check = telemetryCheck({ TOKENLESS_TELEMETRY: '1', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'https://user:hunter2@m.example/v1/metrics?key=K' }, Date.UTC(2026, 11, 4, 0, 30, 5, 123));
    expect(check).toEqual({ name: 'telemetry', status: 'ok', detail: 'on, to https://m.example (OTEL_EXPORTER_OTLP_METRICS_ENDPOINT); last export 2026-12-04T00:30:05Z' });
  });

  it('warns when on without an endpoint, or with one that is not a URL', () => {
    expect(telemetryCheck({ TOKENLESS_TELEMETRY: '1' }, null).status).toBe('warn');
    expect(telemetryCheck({ TOKENLESS_TELEMETRY: '1', OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318 secret' }, null)).toMatchObject({ status: 'warn', detail: 'on, but OTEL_EXPORTER_OTLP_ENDPOINT is not a URL; last export never' });
  });
});
