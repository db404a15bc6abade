/**
 * The native protocol's version and lifecycle names, apart from the zod schemas (schemas.ts) so that a harness's hook
 * call, which never validates a native envelope, does not build them: about 3 ms of every hook call's start-up.
 */
export const PROTOCOL_VERSION = 2;

export const LIFECYCLES = ['before_model', 'pre_tool', 'post_tool', 'retrieve'] as const;
