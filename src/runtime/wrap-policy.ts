/**
 * What Claude Code's pre_tool wraps, shared by the hook and its offline twins (`tokenless rewrite`, `tokenless
 * filter`, the session replay) so they plan the same line: every command, a filter for it or not (issue 22). The
 * hook's permission answer only lets a rewrite through where the client would run the line anyway (allow) or asks
 * anyway (ask in the terminal UI), so what gets wrapped is what the agent's permissions allow; `tokenless run` views
 * an unknown program's output by its content, and a small output comes back byte for byte.
 */
export const CLAUDE_CODE_REWRITE = { wrapUnknown: true } as const;
