/**
 * A Claude Code transcript as the session replay needs it: every tool call with its recorded result (the text the
 * model saw and the client's structured `toolUseResult`), and every billed request with the message chain it sent
 * (`parentUuid` links, so a later request is known to carry an earlier tool result). Usage is read by the shared
 * reader (`parseUsageLine`/`readUsage`), so billed figures agree with `stats usage` and `syt analyze`.
 */
import * as z from 'zod/mini';
import { MessageContent, ToolCalls, resultParts, transcriptLines } from '../transcript/claude-code-lines.ts';
import { parseUsageLine, readUsage, type RequestUsage } from '../transcript/claude-code.ts';
import type { TimelineEntry } from './evidence.ts';

export interface RecordedCall {
  readonly toolUseId: string;
  readonly tool: string;
  readonly input: Record<string, unknown>;
  readonly sessionId: string;
  readonly cwd: string | null;
  /** Subagent id when the call ran inside one (2.x sidechain lines carry `agentId`). */
  readonly agentId: string | null;
  readonly sidechain: boolean;
  /** uuid of the user line that carries the tool_result: what later requests' chains contain. */
  readonly resultUuid: string;
  /** The tool_result content as the model saw it (text blocks joined; images count as nothing). */
  readonly content: string;
  readonly isError: boolean;
  /** The client's structured result (after any hook replacement of the recorded session; none were installed). */
  readonly toolUseResult: unknown;
  /** When the result was recorded (epoch ms), null when the line has no time: the replay's clock for this call. */
  readonly at: number | null;
  /** Its result's place in the session's timeline. */
  readonly timelineIndex: number;
}

export interface RecordedRequest {
  readonly usage: RequestUsage;
  /** uuids of the lines this request sent, newest first (its first line's ancestors). */
  readonly chain: readonly string[];
}

export interface RecordedSession {
  readonly file: string;
  readonly sessionId: string;
  readonly version: string | null;
  /** The session's project directory as recorded (the cwd of its first line). */
  readonly projectDir: string | null;
  readonly calls: readonly RecordedCall[];
  /** Billed requests in first-seen order. */
  readonly requests: readonly RecordedRequest[];
  readonly skippedLines: number;
  /** Every message in order (agent text, thinking and tool inputs; a person's text; tool results): evidence.ts. */
  readonly timeline: readonly TimelineEntry[];
}

const Line = z.looseObject({
  type: z.string(),
  uuid: z.optional(z.string()),
  parentUuid: z.optional(z.nullable(z.string())),
  sessionId: z.optional(z.string()),
  cwd: z.optional(z.string()),
  version: z.optional(z.string()),
  agentId: z.optional(z.string()),
  isSidechain: z.optional(z.boolean()),
  toolUseResult: z.optional(z.unknown()),
  timestamp: z.optional(z.string()),
  message: z.optional(z.looseObject({ content: MessageContent })),
});

/** Deeper chains than this are cut: a cycle or a damaged file must not hang the replay. */
const MAX_CHAIN = 100_000;

export function readRecordedSession(text: string, file: string): RecordedSession {
  const parents = new Map<string, string | null>();
  const uses = new ToolCalls();
  const calls: RecordedCall[] = [];
  const seenResults = new Set<string>();
  const firstLineOfRequest = new Map<string, string>();
  let sessionId = '';
  let version: string | null = null;
  let projectDir: string | null = null;
  let skippedLines = 0;
  const timeline: TimelineEntry[] = [];
  for (const read of transcriptLines(text, Line)) {
    if (read === null) {
      skippedLines += 1;
      continue;
    }
    const { line, raw } = read;
    // A resumed session repeats earlier lines under the same uuids: the first copy counts.
    if (line.uuid !== undefined) {
      if (parents.has(line.uuid)) continue;
      parents.set(line.uuid, line.parentUuid ?? null);
    }
    sessionId ||= line.sessionId ?? '';
    version ??= line.version ?? null;
    projectDir ??= line.cwd ?? null;
    const content = line.message?.content;
    if (typeof content === 'string' && line.type === 'user') timeline.push({ kind: 'user', text: content });
    if (!Array.isArray(content)) continue;
    for (const block of content) {
      if (line.type === 'assistant') {
        const said = block.type === 'text' ? block.text : block.type === 'thinking' ? (block as { thinking?: unknown }).thinking : block.type === 'tool_use' ? JSON.stringify(block.input ?? {}) : undefined;
        if (typeof said === 'string' && said !== '') timeline.push({ kind: 'agent', text: said });
      } else if (line.type === 'user' && block.type === 'text' && typeof block.text === 'string') timeline.push({ kind: 'user', text: block.text });
    }
    if (line.type === 'assistant') {
      const usage = parseUsageLine(raw);
      if (usage !== null && line.uuid !== undefined && !firstLineOfRequest.has(usage.key)) firstLineOfRequest.set(usage.key, line.uuid);
      for (const block of content) {
        const use = ToolCalls.of(block);
        if (use !== null) uses.remember(use.id, use);
      }
      continue;
    }
    if (line.type !== 'user' || line.uuid === undefined) continue;
    for (const block of content) {
      if (block.type !== 'tool_result' || block.tool_use_id === undefined || seenResults.has(block.tool_use_id)) continue;
      seenResults.add(block.tool_use_id);
      const use = uses.answeredBy(block);
      const resultText = resultParts(block.content).filter((part) => part !== '').join('\n');
      timeline.push({ kind: 'result', text: resultText, toolUseId: block.tool_use_id });
      calls.push({
        toolUseId: block.tool_use_id,
        tool: use?.name ?? 'unknown',
        input: use?.input ?? {},
        sessionId: line.sessionId ?? sessionId,
        cwd: line.cwd ?? null,
        agentId: line.agentId ?? null,
        sidechain: line.isSidechain === true,
        resultUuid: line.uuid,
        content: resultText,
        isError: block.is_error === true,
        toolUseResult: line.toolUseResult,
        at: timeOf(line.timestamp),
        timelineIndex: timeline.length - 1,
      });
    }
  }
  const requests = readUsage(text).map((usage) => ({ usage, chain: chainOf(parents.get(firstLineOfRequest.get(usage.key) ?? '') ?? null, parents) }));
  return { file, sessionId, version, projectDir, calls, requests, skippedLines, timeline };
}

function timeOf(timestamp: string | undefined): number | null {
  const ms = timestamp === undefined ? Number.NaN : Date.parse(timestamp);
  return Number.isFinite(ms) ? ms : null;
}

function chainOf(start: string | null, parents: ReadonlyMap<string, string | null>): string[] {
  const chain: string[] = [];
  const seen = new Set<string>();
  for (let uuid = start; uuid !== null && !seen.has(uuid) && chain.length < MAX_CHAIN; uuid = parents.get(uuid) ?? null) {
    seen.add(uuid);
    chain.push(uuid);
  }
  return chain;
}
