/**
 * Codex CLI's hook stdin speaks Claude Code's event names (PreToolUse, PostToolUse, tool_name "Bash") but always
 * carries `turn_id`, which Claude Code's events do not (0.169.0, measured: docs/agents/codex-findings.md). The cheap
 * part the registry asks on the hot path.
 */
export function isCodexEvent(raw: Record<string, unknown>): boolean {
  return typeof raw['hook_event_name'] === 'string' && typeof raw['turn_id'] === 'string';
}
