/**
 * Claude Code transcript reader (`~/.claude/projects/<project>/<session>.jsonl`, subagents in
 * `<session>/subagents/agent-<id>.jsonl`): per-request token usage, normalised and de-duplicated.
 *
 * Public API (shared with `syt analyze --log`):
 * - `parseUsageLine(line)`: one JSONL line -> `RequestUsage | null` (null for non-assistant lines, bad JSON, no usage).
 * - `readUsage(text, file?)`: a whole file -> its requests, already collapsed per request.
 * - `mergeRequests(lists)`: requests from many files -> one list, collapsed across files, sorted by time.
 * - `totalUsage(requests)`: field sums.
 *
 * Why collapsing: Claude Code writes one line per content block of a response, each repeating `message.usage`; the
 * streamed lines of one response share `message.id` and `requestId`, and only the last carries the final
 * `output_tokens` (earlier ones show a partial count). Summing lines over-counts input several times; taking the first
 * (as some tools do) under-counts output. We keep, per request, the largest value of each field.
 */
import * as z from 'zod/mini';
import { recordLines } from './records.ts';

/** Normalised usage of one API request. Token fields are billed categories, disjoint: their sum is the prompt + output. */
export interface RequestUsage {
  /** `message.id|requestId`: the de-duplication key. */
  readonly key: string;
  readonly requestId: string | null;
  readonly messageId: string | null;
  /** Claude Code session id (subagent requests carry their parent's session id). */
  readonly session: string;
  readonly model: string;
  /** ISO-8601 timestamp of the first line seen for the request. */
  readonly timestamp: string;
  /** Uncached input tokens. */
  readonly input: number;
  readonly cacheRead: number;
  readonly cacheWrite5m: number;
  readonly cacheWrite1h: number;
  readonly output: number;
  /** True for subagent (sidechain) requests. */
  readonly sidechain: boolean;
}

const count = z.catch(z.optional(z.number()), undefined);

/** The fields we read of an assistant line; everything else is ignored, and a line that does not fit is skipped. */
const AssistantLine = z.object({
  type: z.literal('assistant'),
  sessionId: z.optional(z.string()),
  requestId: z.optional(z.string()),
  timestamp: z.optional(z.string()),
  uuid: z.optional(z.string()),
  isSidechain: z.optional(z.boolean()),
  message: z.object({
    id: z.optional(z.string()),
    model: z.optional(z.string()),
    usage: z.object({
      input_tokens: count,
      output_tokens: count,
      cache_read_input_tokens: count,
      cache_creation_input_tokens: count,
      cache_creation: z.catch(
        z.optional(z.object({ ephemeral_5m_input_tokens: count, ephemeral_1h_input_tokens: count })),
        undefined,
      ),
    }),
  }),
});

/** Claude Code's placeholder for locally generated messages (errors, interruptions): never billed. */
const SYNTHETIC_MODEL = '<synthetic>';

/** One JSONL line to the usage it reports, or null when it reports none. */
export function parseUsageLine(line: string): RequestUsage | null {
  // Cheap pre-filter: most lines (user turns, tool results, attachments) carry no usage at all.
  if (!line.includes('"usage"') || !line.includes('"assistant"')) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return null;
  }
  const parsed = AssistantLine.safeParse(raw);
  if (!parsed.success) return null;
  const { message } = parsed.data;
  const model = message.model ?? 'unknown';
  if (model === SYNTHETIC_MODEL) return null;
  const usage = message.usage;
  const written = usage.cache_creation_input_tokens ?? 0;
  const split1h = usage.cache_creation?.ephemeral_1h_input_tokens ?? 0;
  // Older transcripts have no 5m/1h split: all writes were 5-minute writes then. A split that does not add up
  // leaves the remainder in 5m (the cheaper assumption).
  const write1h = Math.min(split1h, written);
  const requestId = parsed.data.requestId ?? null;
  const messageId = message.id ?? null;
  return {
    key: requestId === null && messageId === null ? `line:${parsed.data.uuid ?? line}` : `${messageId ?? ''}|${requestId ?? ''}`,
    requestId,
    messageId,
    session: parsed.data.sessionId ?? 'unknown',
    model,
    timestamp: parsed.data.timestamp ?? '',
    input: usage.input_tokens ?? 0,
    cacheRead: usage.cache_read_input_tokens ?? 0,
    cacheWrite5m: written - write1h,
    cacheWrite1h: write1h,
    output: usage.output_tokens ?? 0,
    sidechain: parsed.data.isSidechain === true,
  };
}

/** A whole transcript file (either form, `records.ts`) to its requests, collapsed per request, in first-seen order. */
export function readUsage(text: string): RequestUsage[] {
  const byKey = new Map<string, RequestUsage>();
  for (const line of recordLines(text)) {
    const usage = parseUsageLine(line);
    if (usage === null) continue;
    const seen = byKey.get(usage.key);
    byKey.set(usage.key, seen === undefined ? usage : collapse(seen, usage));
  }
  return [...byKey.values()];
}

/** Requests from several files to one list: the same request in two files (a resumed session copies history) counts once. */
export function mergeRequests(lists: Iterable<readonly RequestUsage[]>): RequestUsage[] {
  const byKey = new Map<string, RequestUsage>();
  for (const list of lists) {
    for (const usage of list) {
      const seen = byKey.get(usage.key);
      byKey.set(usage.key, seen === undefined ? usage : collapse(seen, usage));
    }
  }
  return [...byKey.values()].sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0));
}

export interface UsageTotals {
  readonly requests: number;
  readonly input: number;
  readonly cacheRead: number;
  readonly cacheWrite5m: number;
  readonly cacheWrite1h: number;
  readonly output: number;
}

export function totalUsage(requests: readonly RequestUsage[]): UsageTotals {
  let input = 0;
  let cacheRead = 0;
  let cacheWrite5m = 0;
  let cacheWrite1h = 0;
  let output = 0;
  for (const r of requests) {
    input += r.input;
    cacheRead += r.cacheRead;
    cacheWrite5m += r.cacheWrite5m;
    cacheWrite1h += r.cacheWrite1h;
    output += r.output;
  }
  return { requests: requests.length, input, cacheRead, cacheWrite5m, cacheWrite1h, output };
}

/** Two lines of one request: the largest value of each counter (streamed output only grows), the earliest time. */
function collapse(a: RequestUsage, b: RequestUsage): RequestUsage {
  return {
    ...a,
    timestamp: a.timestamp !== '' && (b.timestamp === '' || a.timestamp <= b.timestamp) ? a.timestamp : b.timestamp,
    input: Math.max(a.input, b.input),
    cacheRead: Math.max(a.cacheRead, b.cacheRead),
    cacheWrite5m: Math.max(a.cacheWrite5m, b.cacheWrite5m),
    cacheWrite1h: Math.max(a.cacheWrite1h, b.cacheWrite1h),
    output: Math.max(a.output, b.output),
  };
}
