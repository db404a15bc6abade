/**
 * The gateway's own counters (issue 26): prompt-cache reads and writes the upstream reported for the Messages calls
 * the gateway forwarded, since it started. They live in the gateway's process, not in stats.db: a restart resets
 * them, which Prometheus reads as a counter reset (rate and increase stay right). Only the session id becomes an
 * attribute, through the same shape check as the stats points; a model name, path or body never does.
 */
import type { UsageRecord } from '../gateway/usage-log.ts';
import { sessionIdOf, type MetricKey, type MetricPoint } from './metrics.ts';

interface Totals {
  requests: number;
  cacheRead: number;
  cacheWrite: number;
  firstTs: number;
  lastTs: number;
}

export class GatewayCounters {
  private readonly bySession = new Map<string, Totals>();

  /** One forwarded Messages call, as the gateway logged it. */
  add(record: UsageRecord, now: number): void {
    const session = record.session_id === null ? '(none)' : sessionIdOf(record.session_id);
    const seen = this.bySession.get(session) ?? { requests: 0, cacheRead: 0, cacheWrite: 0, firstTs: now, lastTs: now };
    seen.requests += 1;
    seen.cacheRead += record.usage?.cache_read ?? 0;
    seen.cacheWrite += record.usage?.cache_write ?? 0;
    seen.lastTs = now;
    this.bySession.set(session, seen);
  }

  points(): MetricPoint[] {
    const out: MetricPoint[] = [];
    for (const [session, totals] of this.bySession) {
      const point = (metric: MetricKey, value: number): MetricPoint => ({ metric, attributes: { 'session.id': session }, value, firstTs: totals.firstTs, lastTs: totals.lastTs });
      out.push(point('gatewayRequests', totals.requests), point('gatewayCacheRead', totals.cacheRead), point('gatewayCacheWrite', totals.cacheWrite));
    }
    return out;
  }
}
