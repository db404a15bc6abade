/** The `/metrics` page of `tokenless serve`: the whole stats.db as cumulative counters, read-only, per scrape. */
import { operationGroups, retrievalGroups } from '../store/stats-export.ts';
import { withStatsReader } from '../store/stats-client.ts';
import { parseResourceAttributes, toMetricPoints } from './metrics.ts';
import { toPrometheusText } from './prometheus.ts';

export function scrapeText(dataDir: string, env: Readonly<Record<string, string | undefined>>): string {
  const points = withStatsReader(dataDir, [], (db) => toMetricPoints(operationGroups(db), retrievalGroups(db)));
  return toPrometheusText(points, parseResourceAttributes(env['OTEL_RESOURCE_ATTRIBUTES']));
}
