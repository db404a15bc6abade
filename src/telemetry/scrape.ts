/**
 * The `/metrics` page of `tokenless serve` and the gateway: the whole stats.db as cumulative counters, read-only, per
 * scrape, plus any points the serving process counts itself (the gateway's cache reads and writes).
 */
import { operationGroups, retrievalGroups } from '../store/stats-export.ts';
import { withStatsReader } from '../store/stats-client.ts';
import { parseResourceAttributes, toMetricPoints, type MetricPoint } from './metrics.ts';
import { toPrometheusText } from './prometheus.ts';

export function scrapeText(dataDir: string, env: Readonly<Record<string, string | undefined>>, own: readonly MetricPoint[] = []): string {
  const points = withStatsReader(dataDir, [], (db) => toMetricPoints(operationGroups(db), retrievalGroups(db)));
  return toPrometheusText([...points, ...own], parseResourceAttributes(env['OTEL_RESOURCE_ATTRIBUTES']));
}
