/**
 * A minimal Claude Code JSONL reader into the normalised turn model. Issue 6's `claude-code.ts` reads per-request
 * usage for cost; this one also keeps tool calls, messages, todos and compaction boundaries. Both dedupe requests
 * by message.id + requestId: Claude Code writes one line per content block of a response, each repeating the usage.
 */
import * as z from 'zod/mini';
import { MessageContent, ToolCalls, resultParts, transcriptLines, type ContentBlock, type ToolUse } from './claude-code-lines.ts';
import { toolKind, type CompactionEvent, type ConversationMessage, type Todo, type ToolEvent, type Transcript, type TranscriptRequest } from './turns.ts';

const Usage = z.looseObject({
  input_tokens: z.optional(z.number()),
  cache_read_input_tokens: z.optional(z.nullable(z.number())),
  cache_creation_input_tokens: z.optional(z.nullable(z.number())),
  output_tokens: z.optional(z.number()),
});

const Line = z.looseObject({
  type: z.string(),
  uuid: z.optional(z.string()),
  sessionId: z.optional(z.string()),
  timestamp: z.optional(z.string()),
  isSidechain: z.optional(z.boolean()),
  requestId: z.optional(z.string()),
  subtype: z.optional(z.string()),
  isCompactSummary: z.optional(z.boolean()),
  compactMetadata: z.optional(z.looseObject({ trigger: z.optional(z.string()), preTokens: z.optional(z.number()) })),
  toolUseResult: z.optional(z.unknown()),
  message: z.optional(
    z.looseObject({
      id: z.optional(z.string()),
      role: z.optional(z.string()),
      model: z.optional(z.string()),
      content: MessageContent,
      usage: z.optional(Usage),
    }),
  ),
});
type Line = z.infer<typeof Line>;

const ShellResult = z.looseObject({ stdout: z.string(), stderr: z.optional(z.string()) });
const TodoInput = z.looseObject({ todos: z.array(z.looseObject({ content: z.string(), status: z.string() })) });

interface PendingCall extends ToolUse {
  readonly requestIndex: number;
}

/** Parses one transcript file's text. Unreadable lines are counted, never fatal. */
export function readClaudeCodeTranscript(text: string, file: string): Transcript {
  const requests: TranscriptRequest[] = [];
  const requestIndexByKey = new Map<string, number>();
  const calls = new ToolCalls<PendingCall>();
  const tools: ToolEvent[] = [];
  const messages: ConversationMessage[] = [];
  const compactions: CompactionEvent[] = [];
  let todos: Todo[] = [];
  let skipped = 0;
  let sessionId = '';
  for (const read of transcriptLines(text, Line)) {
    if (read === null) {
      skipped += 1;
      continue;
    }
    const { line } = read;
    sessionId ||= line.sessionId ?? '';
    const sidechain = line.isSidechain === true;
    const current = requests.length - 1;
    if (line.type === 'system' && line.subtype === 'compact_boundary') {
      compactions.push({ requestIndex: current, trigger: line.compactMetadata?.trigger ?? null, preTokens: line.compactMetadata?.preTokens ?? null });
      continue;
    }
    const message = line.message;
    if (message === undefined) continue;
    if (line.type === 'assistant') {
      const index = recordRequest(line, requests, requestIndexByKey);
      for (const block of blocksOf(message.content)) {
        if (block.type === 'text' && block.text !== undefined) messages.push({ role: 'assistant', text: block.text, requestIndex: index });
        const use = ToolCalls.of(block);
        if (use !== null) {
          calls.remember(use.id, { name: use.name, input: use.input, requestIndex: index });
          if (use.name === 'TodoWrite' && !sidechain) todos = TodoInput.safeParse(use.input).data?.todos ?? todos;
        }
      }
      continue;
    }
    if (line.type !== 'user') continue;
    if (typeof message.content === 'string') {
      messages.push({ role: 'user', text: message.content, requestIndex: current + 1 });
      continue;
    }
    for (const block of blocksOf(message.content)) {
      if (block.type === 'text' && block.text !== undefined) messages.push({ role: 'user', text: block.text, requestIndex: current + 1 });
      if (block.type !== 'tool_result' || block.tool_use_id === undefined) continue;
      const call = calls.answeredBy(block);
      const output = resultParts(block.content).join('\n');
      messages.push({ role: 'tool', text: output, requestIndex: current + 1 });
      tools.push(toolEvent(block, call, output, line.toolUseResult, sidechain, current));
    }
  }
  return { source: 'claude-code', file, sessionId, requests, tools, messages, compactions, todos, skipped };
}

/** Adds the request a response line belongs to (once per message.id + requestId) and returns its index. */
function recordRequest(line: Line, requests: TranscriptRequest[], seen: Map<string, number>): number {
  const message = line.message;
  const key = `${message?.id ?? line.uuid ?? requests.length}:${line.requestId ?? ''}`;
  const known = seen.get(key);
  const usage = message?.usage;
  if (known !== undefined) {
    const previous = requests[known];
    // Later lines of a streamed response may carry a larger output count; the context fields never change.
    if (previous !== undefined && usage?.output_tokens !== undefined && usage.output_tokens > previous.outputTokens) {
      requests[known] = { ...previous, outputTokens: usage.output_tokens };
    }
    return known;
  }
  if (usage === undefined) return requests.length - 1;
  const input = usage.input_tokens ?? 0;
  const read = usage.cache_read_input_tokens ?? 0;
  const write = usage.cache_creation_input_tokens ?? 0;
  const index = requests.length;
  requests.push({
    index,
    id: line.requestId ?? message?.id ?? key,
    timestamp: line.timestamp ?? null,
    model: message?.model ?? null,
    inputTokens: input,
    cacheReadTokens: read,
    cacheWriteTokens: write,
    outputTokens: usage.output_tokens ?? 0,
    contextTokens: input + read + write,
    method: 'reported_usage',
    sidechain: line.isSidechain === true,
  });
  seen.set(key, index);
  return index;
}

function toolEvent(block: ContentBlock, call: PendingCall | undefined, output: string, result: unknown, sidechain: boolean, current: number): ToolEvent {
  const tool = call?.name ?? 'unknown';
  const input = call?.input ?? {};
  const shell = ShellResult.safeParse(result);
  const command = typeof input['command'] === 'string' ? input['command'] : null;
  const filePath = typeof input['file_path'] === 'string' ? input['file_path'] : typeof input['notebook_path'] === 'string' ? input['notebook_path'] : null;
  return {
    id: block.tool_use_id ?? '',
    tool,
    command,
    filePath,
    kind: toolKind(tool),
    output,
    stdout: shell.success ? shell.data.stdout : null,
    stderr: shell.success ? (shell.data.stderr ?? '') : null,
    isError: block.is_error === true,
    requestIndex: call?.requestIndex ?? current,
    sidechain,
  };
}

function blocksOf(content: string | ContentBlock[] | undefined): ContentBlock[] {
  return Array.isArray(content) ? content : [];
}
