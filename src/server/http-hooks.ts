/** The shape of our HTTP hooks, shared by the harnesses that register them and the server that answers them. */

/** Every hook call carries the token (src/server/token.ts) in this header. */
export const TOKEN_HEADER = 'X-Tokenless-Token';

/** What a hook of ours calls (`hook NAME`, or the last part of its URL): a lifecycle, or `session` for the budget. */
export const HOOK_ENDPOINTS = ['pre_tool', 'post_tool', 'session'] as const;
export type HookEndpoint = (typeof HOOK_ENDPOINTS)[number];

/** `/tokenless/<harness>/`: the prefix of one harness's hook URLs, so the server knows whose dialect it reads. */
export function httpHookPath(harness: string): string {
  return `/tokenless/${harness}/`;
}
