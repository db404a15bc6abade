/**
 * The native protocol's version, lifecycle names and dispositions, apart from the zod schemas (schemas.ts) so that a
 * harness's hook call, which never validates a native envelope, does not build them: about 3 ms of every hook call's
 * start-up.
 */
export const PROTOCOL_VERSION = 2;

export const LIFECYCLES = ['before_model', 'pre_tool', 'post_tool', 'retrieve'] as const;

/** How a call ended; every value but `applied` is a decline, and names its reason. */
export const DISPOSITIONS = [
  'applied',
  'dry_run',
  'passthrough',
  'no_savings',
  'recoverability_unavailable',
  'timeout',
  'tool_error',
] as const;
