/**
 * Stats rows as metric points (issue 26), one source for the OTLP export and the Prometheus page. Every attribute
 * comes through an allowlist of keys and a shape check of values: a command line, a path or any output never becomes
 * an attribute (cardinality and privacy). Values that fail the check become `other`, never a trimmed copy of them.
 */
import type { OperationGroup, RetrievalGroup } from '../store/stats-export.ts';

/** The only point attribute keys; the resource's come from OTEL_RESOURCE_ATTRIBUTES (parseResourceAttributes). */
export const ATTRIBUTE_KEYS = ['harness', 'lifecycle', 'view.kind', 'retrieval.kind', 'command.family', 'session.id', 'outcome', 'disposition'] as const;
export type AttributeKey = (typeof ATTRIBUTE_KEYS)[number];
export type Attributes = Partial<Record<AttributeKey, string>>;

export const METRICS = {
  tokensBefore: { name: 'tokenless.tokens.before', unit: 'tokens', description: 'Tokens of tool output before a view (gross, capped at what the host shows)' },
  tokensAfter: { name: 'tokenless.tokens.after', unit: 'tokens', description: 'Tokens the agent was shown instead (gross)' },
  tokensRetrieved: { name: 'tokenless.tokens.retrieved', unit: 'tokens', description: 'Tokens printed by retrievals and re-runs of a viewed output (net = before - after - retrieved)' },
  views: { name: 'tokenless.views', unit: '{view}', description: 'Views shown, by view kind' },
  retrievals: { name: 'tokenless.retrievals', unit: '{retrieval}', description: 'Retrievals of an original and re-runs of a viewed command' },
  gatewayRequests: { name: 'tokenless.gateway.requests', unit: '{request}', description: 'Messages API calls the gateway forwarded since it started' },
  gatewayCacheRead: { name: 'tokenless.gateway.cache.read', unit: 'tokens', description: 'Input tokens the upstream served from its prompt cache, for calls through the gateway' },
  gatewayCacheWrite: { name: 'tokenless.gateway.cache.write', unit: 'tokens', description: 'Input tokens the upstream wrote to its prompt cache, for calls through the gateway' },
  hookCalls: { name: 'tokenless.hook.calls', unit: '{call}', description: 'Hook processes by how they ended (answered, passthrough, error, malformed) and the disposition: applied or why it declined' },
} as const;

/** The one histogram: each hook process from its start to its answer (src/telemetry/hook-calls.ts). */
export const HOOK_LATENCY = { name: 'tokenless.hook.latency', unit: 'ms', description: 'Hook process wall time, from its start to its answer' } as const;
export type MetricKey = keyof typeof METRICS;

export interface MetricPoint {
  readonly metric: MetricKey;
  readonly attributes: Attributes;
  readonly value: number;
  /** Epoch ms of the earliest and latest record counted in the point. */
  readonly firstTs: number;
  readonly lastTs: number;
}

/** The harnesses we ship (their agent_id), and `native` for a hook call in our own envelope; an SDK caller may send any
 * string, which becomes `other`. */
const HARNESSES = new Set(['claude-code', 'codex', 'gemini-cli', 'opencode', 'pi', 'copilot', 'native']);
const LIFECYCLES = new Set(['before_model', 'pre_tool', 'post_tool', 'retrieve', 'run', 'session']);
const RETRIEVAL_KINDS = new Set(['retrieve', 'rerun']);

/**
 * Program name → command family. The name alone (never its arguments), and only names listed here: a script or a
 * binary of a person's own is `other`, since its name can say more than a family should.
 */
const FAMILIES: Readonly<Record<string, string>> = {
  git: 'vcs', gh: 'vcs', hg: 'vcs', svn: 'vcs',
  npm: 'package', pnpm: 'package', yarn: 'package', bun: 'package', pip: 'package', pip3: 'package', uv: 'package', poetry: 'package', cargo: 'build', go: 'build',
  make: 'build', tsc: 'build', gradle: 'build', mvn: 'build', cmake: 'build', ninja: 'build', bazel: 'build', esbuild: 'build', vite: 'build',
  jest: 'test', vitest: 'test', pytest: 'test', mocha: 'test', rspec: 'test', playwright: 'test',
  grep: 'search', rg: 'search', ag: 'search', ack: 'search', fd: 'search', find: 'search',
  ls: 'fs', tree: 'fs', du: 'fs', stat: 'fs', cat: 'read', head: 'read', tail: 'read', less: 'read', sed: 'read', jq: 'json',
  docker: 'container', podman: 'container', kubectl: 'container', helm: 'container',
  eslint: 'lint', prettier: 'lint', ruff: 'lint', biome: 'lint',
};

/** A view kind is a short identifier of ours (`git-status`, `json`); anything else (a slash, a space) is not one. */
const KIND_SHAPE = /^[a-z][a-z0-9_.:-]{0,39}$/;
/** Session ids are UUIDs or short tokens; a value with a slash, space or quote is not one. */
const SESSION_SHAPE = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

export function harnessOf(agentId: string): string {
  return HARNESSES.has(agentId) ? agentId : 'other';
}

export function lifecycleOf(lifecycle: string): string {
  return LIFECYCLES.has(lifecycle) ? lifecycle : 'other';
}

export function viewKindOf(kind: string | null): string {
  if (kind === null) return '(none)';
  return KIND_SHAPE.test(kind) ? kind : 'other';
}

export function sessionIdOf(session: string): string {
  return SESSION_SHAPE.test(session) ? session : 'other';
}

/** `git`, `/usr/bin/git` and `git status` are all `vcs`; an unknown program, or none, is `other`. */
export function commandFamilyOf(program: string | null): string {
  if (program === null) return 'other';
  const first = program.trim().split(/\s+/)[0] ?? '';
  const name = first.slice(first.lastIndexOf('/') + 1).replace(/\.(exe|cmd)$/i, '');
  return Object.hasOwn(FAMILIES, name) ? (FAMILIES[name] as string) : 'other';
}

/** Sums points with equal metric and attributes, so a range's groups become one point per series. */
export function collectPoints(points: readonly MetricPoint[]): MetricPoint[] {
  const byKey = new Map<string, MetricPoint>();
  for (const point of points) {
    const key = `${point.metric}\u0000${JSON.stringify(point.attributes)}`;
    const seen = byKey.get(key);
    byKey.set(
      key,
      seen === undefined
        ? point
        : { ...seen, value: seen.value + point.value, firstTs: Math.min(seen.firstTs, point.firstTs), lastTs: Math.max(seen.lastTs, point.lastTs) },
    );
  }
  return [...byKey.values()];
}

export function toMetricPoints(operations: readonly OperationGroup[], retrievals: readonly RetrievalGroup[]): MetricPoint[] {
  const points: MetricPoint[] = [];
  for (const row of operations) {
    const base: Attributes = { harness: harnessOf(row.agent_id), lifecycle: lifecycleOf(row.lifecycle), 'session.id': sessionIdOf(row.session_id) };
    const span = { firstTs: row.first_ts, lastTs: row.last_ts };
    points.push({ metric: 'tokensBefore', attributes: base, value: row.before_tokens, ...span });
    points.push({ metric: 'tokensAfter', attributes: base, value: row.after_tokens, ...span });
    points.push({ metric: 'views', attributes: { ...base, 'view.kind': viewKindOf(row.content_type) }, value: row.records, ...span });
  }
  for (const row of retrievals) {
    const attributes: Attributes = {
      'session.id': sessionIdOf(row.session_id),
      'retrieval.kind': RETRIEVAL_KINDS.has(row.kind) ? row.kind : 'other',
      'view.kind': viewKindOf(row.view_kind),
      'command.family': commandFamilyOf(row.program),
    };
    const span = { firstTs: row.first_ts, lastTs: row.last_ts };
    points.push({ metric: 'retrievals', attributes, value: row.records, ...span });
    points.push({ metric: 'tokensRetrieved', attributes, value: row.printed_tokens, ...span });
  }
  return collectPoints(points);
}

/**
 * OTEL_RESOURCE_ATTRIBUTES as the spec writes it: `key=value` pairs split by commas, values percent-encoded. A pair
 * without `=` or with an empty key is skipped, as the SDK does.
 */
export function parseResourceAttributes(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (raw ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    try {
      out[key] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      // A malformed escape: the SDK drops the pair too.
    }
  }
  return out;
}
