/**
 * Claude Code cuts a Bash result at 30,000 characters before the model sees it. A fact about the host that both the
 * harness registry (src/harness/registry.ts) and the stats accounting (src/store/stats-query.ts) need: it lives here,
 * below both, so the store reads no harness module.
 */
export const CLAUDE_CODE_SHELL_OUTPUT_CAP = 30_000;
