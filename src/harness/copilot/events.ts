/**
 * GitHub Copilot CLI's hook stdin (1.0.102, measured: docs/agents/copilot.md) has camelCase fields and no
 * `hook_event_name`: `sessionId`, `timestamp`, `cwd`, `toolName`, `toolArgs` (and `toolResult` after the call). The
 * cheap part the registry asks on the hot path; no other dialect sends `toolArgs`.
 */
export function isCopilotEvent(raw: Record<string, unknown>): boolean {
  return !('hook_event_name' in raw) && typeof raw['toolName'] === 'string' && 'toolArgs' in raw && typeof raw['sessionId'] === 'string';
}
