import { describeIssues } from './issues.ts';
import { REQUEST_SCHEMAS, type Lifecycle, type LifecycleRequest } from './schemas.ts';

export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Validates a native envelope for one lifecycle; tool_use_id is required for pre_tool and ordinary post_tool. */
export function parseRequest<L extends Lifecycle>(lifecycle: L, raw: unknown): ParseOutcome<LifecycleRequest<L>> {
  const schema = REQUEST_SCHEMAS[lifecycle];
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: describeIssues(parsed.error) };
  const value = parsed.data as LifecycleRequest<L>;
  if (needsToolUseId(value) && value.attribution.tool_use_id === undefined) {
    return { ok: false, reason: `attribution.tool_use_id: required for ${lifecycle}` };
  }
  return { ok: true, value };
}

function needsToolUseId(request: LifecycleRequest<Lifecycle>): boolean {
  if (request.operation === 'pre_tool') return true;
  if (request.operation === 'post_tool') return request.input.result_kind !== 'retrieve';
  return false;
}
