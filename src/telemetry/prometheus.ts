/**
 * The Prometheus text exposition (format 0.0.4) of the same points the OTLP export sends, named as the collector's
 * Prometheus exporter would name them: dots become underscores, counters end in `_total`
 * (`tokenless.tokens.before` is `tokenless_tokens_before_total`), so a scraped series and a pushed one join.
 * The resource (OTEL_RESOURCE_ATTRIBUTES) is one `target_info` series, as the OpenTelemetry spec maps it.
 */
import { METRICS, type MetricKey, type MetricPoint } from './metrics.ts';

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const sanitize = (name: string): string => name.replace(/[^a-zA-Z0-9_]/g, '_');

export function prometheusName(metric: MetricKey): string {
  return `${sanitize(METRICS[metric].name)}_total`;
}

function escapeLabel(value: string): string {
  return value.replaceAll('\\', '\\\\').replaceAll('\n', '\\n').replaceAll('"', '\\"');
}

function labels(attributes: Readonly<Record<string, string | undefined>>): string {
  const pairs = Object.entries(attributes)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => `${sanitize(key)}="${escapeLabel(value)}"`);
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
}

export function toPrometheusText(points: readonly MetricPoint[], resource: Readonly<Record<string, string>>): string {
  const lines: string[] = [];
  if (Object.keys(resource).length > 0) {
    lines.push('# HELP target_info Target metadata', '# TYPE target_info gauge', `target_info${labels(resource)} 1`);
  }
  for (const metric of Object.keys(METRICS) as MetricKey[]) {
    const name = prometheusName(metric);
    lines.push(`# HELP ${name} ${METRICS[metric].description}`, `# TYPE ${name} counter`);
    for (const point of points) if (point.metric === metric) lines.push(`${name}${labels(point.attributes)} ${point.value}`);
  }
  return `${lines.join('\n')}\n`;
}
