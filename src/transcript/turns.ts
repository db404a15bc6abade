/**
 * The normalised turn model every transcript reader produces (Claude Code JSONL, aider chat history, SWE-agent
 * trajectories), so analysis and replay are written once.
 */

/** Where a request's context size came from: the provider's usage fields, a "Tokens: N sent" log line, or our count. */
export type ContextMethod = 'reported_usage' | 'reported_sent' | 'counted_o200k';

/** One model request and the context it carried. */
export interface TranscriptRequest {
  readonly index: number;
  readonly id: string;
  readonly timestamp: string | null;
  readonly model: string | null;
  /** Uncached input; for non-Claude sources the whole prompt. */
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly outputTokens: number;
  /** input + cache read + cache write: the context the model saw. */
  readonly contextTokens: number;
  readonly method: ContextMethod;
  /** A subagent's request (Claude Code sidechain): its own, separate context. */
  readonly sidechain: boolean;
}

/** One tool call and its result as the model saw it. */
export interface ToolEvent {
  readonly id: string;
  readonly tool: string;
  /** The shell command, for Bash-like tools. */
  readonly command: string | null;
  /** The file a read/edit/write tool touched. */
  readonly filePath: string | null;
  readonly kind: 'read' | 'edit' | 'shell' | 'search' | 'other';
  /** The text the model was given. */
  readonly output: string;
  /** For shell tools whose transcript keeps them apart: the streams as captured. */
  readonly stdout: string | null;
  readonly stderr: string | null;
  readonly isError: boolean;
  /** Index of the request that issued the call. */
  readonly requestIndex: number;
  readonly sidechain: boolean;
}

export interface ConversationMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly text: string;
  readonly requestIndex: number;
}

export interface CompactionEvent {
  readonly requestIndex: number;
  readonly trigger: string | null;
  /** Context size just before compaction, when the transcript says. */
  readonly preTokens: number | null;
}

export interface Todo {
  readonly content: string;
  readonly status: string;
}

export interface Transcript {
  readonly source: 'claude-code' | 'aider' | 'swe-agent';
  readonly file: string;
  readonly sessionId: string;
  readonly requests: readonly TranscriptRequest[];
  readonly tools: readonly ToolEvent[];
  readonly messages: readonly ConversationMessage[];
  readonly compactions: readonly CompactionEvent[];
  /** The last todo list the agent wrote, when it keeps one. */
  readonly todos: readonly Todo[];
  /** Lines that could not be read, with why: reported, never fatal. */
  readonly skipped: number;
}

/** Classifies a tool by name across agents (Claude Code, SWE-agent commands, aider's /run). */
export function toolKind(tool: string): ToolEvent['kind'] {
  if (/^(read|open|view|cat|goto|scroll_up|scroll_down|notebookread)$/i.test(tool)) return 'read';
  if (/^(edit|multiedit|write|create|str_replace_editor|notebookedit|insert)$/i.test(tool)) return 'edit';
  if (/^(bash|shell|run|bashoutput|execute_bash)$/i.test(tool)) return 'shell';
  if (/^(grep|glob|search_dir|search_file|find_file|ls)$/i.test(tool)) return 'search';
  return 'other';
}
