/**
 * SWE-agent trajectories (`.traj` JSON) into the normalised turn model. A trajectory keeps the full message history
 * but no per-call usage, so each request's context is counted: every history message before an assistant reply,
 * with the tokenizer the caller passes (o200k; the model's own tokenizer may differ, hence `counted_o200k`).
 */
import * as z from 'zod/mini';
import { toolKind, type ConversationMessage, type ToolEvent, type Transcript, type TranscriptRequest } from './turns.ts';

const Content = z.union([z.string(), z.array(z.looseObject({ text: z.optional(z.string()) }))]);
const Trajectory = z.looseObject({
  trajectory: z.array(z.looseObject({ action: z.optional(z.string()), observation: z.optional(z.string()) })),
  history: z.array(z.looseObject({ role: z.string(), content: Content, agent: z.optional(z.string()) })),
  info: z.optional(z.looseObject({ model_stats: z.optional(z.looseObject({ tokens_sent: z.optional(z.number()), api_calls: z.optional(z.number()) })) })),
});

export interface SweAgentExtras {
  /** `info.model_stats.tokens_sent` as the run recorded it (0 in replayed demonstrations). */
  readonly reportedTokensSent: number | null;
}

/** Parses a trajectory; null when the text is not one. */
export function readSweAgentTrajectory(text: string, file: string, count: (text: string) => number): (Transcript & SweAgentExtras) | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = Trajectory.safeParse(raw);
  if (!parsed.success) return null;
  const { history, trajectory, info } = parsed.data;
  const requests: TranscriptRequest[] = [];
  const messages: ConversationMessage[] = [];
  let context = 0;
  for (const entry of history) {
    const body = typeof entry.content === 'string' ? entry.content : entry.content.map((part) => part.text ?? '').join('\n');
    if (entry.role === 'assistant') {
      const output = count(body);
      requests.push(countedRequest(requests.length, context, output));
      messages.push({ role: 'assistant', text: body, requestIndex: requests.length - 1 });
      context += output;
      continue;
    }
    const role = entry.role === 'system' || entry.role === 'tool' ? entry.role : 'user';
    messages.push({ role, text: body, requestIndex: requests.length });
    context += count(body);
  }
  const tools = trajectory.map((step, index): ToolEvent => {
    const action = (step.action ?? '').trim();
    const name = action.split(/\s/u)[0] ?? '';
    return {
      id: `step-${index}`,
      tool: name,
      command: action,
      filePath: name === 'open' || name === 'create' ? (action.split(/\s+/u)[1] ?? null) : null,
      kind: toolKind(name) === 'other' ? 'shell' : toolKind(name),
      output: step.observation ?? '',
      stdout: null,
      stderr: null,
      isError: false,
      requestIndex: Math.min(index, Math.max(requests.length - 1, 0)),
      sidechain: false,
    };
  });
  const sent = info?.model_stats?.tokens_sent;
  return {
    source: 'swe-agent',
    file,
    sessionId: file,
    requests,
    tools,
    messages,
    compactions: [],
    todos: [],
    skipped: 0,
    reportedTokensSent: sent === undefined || sent === 0 ? null : sent,
  };
}

function countedRequest(index: number, context: number, output: number): TranscriptRequest {
  return {
    index,
    id: `call-${index + 1}`,
    timestamp: null,
    model: null,
    inputTokens: context,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: output,
    contextTokens: context,
    method: 'counted_o200k',
    sidechain: false,
  };
}
