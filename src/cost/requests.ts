/**
 * The API requests of one Claude Code transcript, rebuilt for the cache simulator: per request its message chain
 * (the `parentUuid` ancestors of its first response line), which agent sent it (main session or one subagent), when it
 * was sent (the time of the newest line it carried) and answered (its first response line), and its recorded usage.
 *
 * Sizes are taken from the recorded usage, not re-tokenised: input + cache read + cache write is exactly the prompt
 * Anthropic counted for that request, with Anthropic's own tokenizer. What the simulator must predict is how that
 * prompt splits into read and written, which is what the cache model decides.
 */
import * as z from 'zod/mini';
import type { RequestUsage } from '../transcript/claude-code.ts';
import { readRecordedSession, type RecordedCall } from '../replay/transcript.ts';
import { recordLines } from '../transcript/records.ts';

export interface SimRequest {
  readonly usage: RequestUsage;
  /**
   * `main` or `side` (any subagent). Subagents of one kind share their system prompt and tools, so the stable-prefix
   * entry is shared per kind; their conversations never share a prefix, which the chain check already decides.
   */
  readonly agent: 'main' | 'side';
  /** uuids this request carried (its chain), for prefix checks. */
  readonly chain: ReadonlySet<string>;
  /** The newest line of the chain: an entry this request leaves is a prefix of every request whose chain holds it. */
  readonly head: string | null;
  readonly sentAt: number;
  readonly answeredAt: number;
  /** Tokens up to the last cache breakpoint (cache read + cache write as recorded). */
  readonly cacheable: number;
  /** Text of the messages the chain holds (what the transcript has of the prompt), for the stable-prefix estimate. */
  readonly chainText: () => string;
  /**
   * The chain's lines oldest first, as the request carried them: what the gateway's policies judge. Optional so a
   * request built from another source (no message contents) still simulates; the gateway policies then find nothing.
   */
  readonly lines?: () => readonly ChainLine[];
}

export interface ChainLine {
  readonly uuid: string;
  readonly role: string;
  readonly time: number;
  readonly content: unknown;
}

export interface SimSession {
  readonly file: string;
  readonly requests: readonly SimRequest[];
  readonly calls: readonly RecordedCall[];
}

const Line = z.looseObject({
  uuid: z.optional(z.string()),
  timestamp: z.optional(z.string()),
  message: z.optional(z.looseObject({ role: z.optional(z.string()), content: z.optional(z.unknown()) })),
});

interface LineInfo {
  readonly time: number;
  readonly role: string;
  readonly content: unknown;
}

export function readSimSession(text: string, file: string): SimSession {
  const recorded = readRecordedSession(text, file);
  const lines = new Map<string, LineInfo>();
  for (const raw of recordLines(text)) {
    if (!raw.includes('"uuid"')) continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      continue;
    }
    const parsed = Line.safeParse(value);
    if (!parsed.success || parsed.data.uuid === undefined || lines.has(parsed.data.uuid)) continue;
    lines.set(parsed.data.uuid, {
      time: Date.parse(parsed.data.timestamp ?? ''),
      role: parsed.data.message?.role ?? '',
      content: parsed.data.message?.content,
    });
  }
  const requests: SimRequest[] = [];
  for (const { usage, chain } of recorded.requests) {
    const head = chain[0] ?? null;
    const headLine = head === null ? undefined : lines.get(head);
    const answered = Date.parse(usage.timestamp);
    const answeredAt = Number.isFinite(answered) ? answered : 0;
    const sentAt = headLine !== undefined && Number.isFinite(headLine.time) ? Math.min(headLine.time, answeredAt || headLine.time) : answeredAt;
    requests.push({
      usage,
      agent: usage.sidechain ? 'side' : 'main',
      chain: new Set(chain),
      head,
      sentAt,
      answeredAt: Math.max(answeredAt, sentAt),
      cacheable: usage.cacheRead + usage.cacheWrite5m + usage.cacheWrite1h,
      chainText: () => chain.map((uuid) => contentText(lines.get(uuid)?.content)).join('\n'),
      lines: () =>
        [...chain].reverse().flatMap((uuid) => {
          const line = lines.get(uuid);
          return line === undefined ? [] : [{ uuid, role: line.role, time: line.time, content: line.content }];
        }),
    });
  }
  // Sent order: the cache sees requests in the order they arrive, which is not always the file's order.
  requests.sort((a, b) => a.sentAt - b.sentAt);
  return { file, requests, calls: recorded.calls };
}

/**
 * The session as if it had paused for `ms` before its middle request (by sent order): every request and line from
 * there on comes `ms` later. What the policies would save on a session with one more pause, priced on real prompts.
 */
export function insertPause(session: SimSession, ms: number): SimSession {
  const pivotRequest = session.requests[Math.floor(session.requests.length / 2)];
  if (pivotRequest === undefined || ms <= 0) return session;
  const pivot = pivotRequest.sentAt;
  const shift = (t: number) => (t >= pivot ? t + ms : t);
  return {
    ...session,
    requests: session.requests.map((r) => ({
      ...r,
      sentAt: shift(r.sentAt),
      answeredAt: shift(r.answeredAt),
      lines: () => linesOf(r).map((line) => ({ ...line, time: shift(line.time) })),
    })),
  };
}

export function linesOf(request: SimRequest): readonly ChainLine[] {
  return request.lines?.() ?? [];
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (content === undefined || content === null) return '';
  return JSON.stringify(content);
}
