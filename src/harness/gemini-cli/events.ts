/**
 * Gemini CLI's hook event names (0.61.0, `hook_event_name` on stdin) that Claude Code does not also use: the cheap
 * part the registry recognises. SessionStart, SessionEnd and Notification exist in both dialects, so they are not
 * listed (nothing of ours is registered for them in Gemini CLI).
 */
export const GEMINI_CLI_EVENTS = [
  'BeforeTool',
  'AfterTool',
  'BeforeAgent',
  'AfterAgent',
  'BeforeModel',
  'AfterModel',
  'BeforeToolSelection',
  'PreCompress',
] as const;
