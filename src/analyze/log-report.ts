/**
 * What a transcript says about context use: per-request sizes, totals, cache-hit share and what filled the context.
 * Pure: the caller reads the files and passes a token counter (o200k) for the parts measured from text.
 */
import { staticArgv } from '../rewrite/static-argv.ts';
import type { Transcript, TranscriptRequest } from '../transcript/turns.ts';

export interface RequestRow {
  readonly index: number;
  readonly id: string;
  readonly input: number;
  readonly cache_read: number;
  readonly cache_write: number;
  readonly output: number;
  readonly context: number;
  readonly sidechain: boolean;
}

export interface FillRow {
  readonly name: string;
  readonly calls: number;
  readonly tokens: number;
}

export interface RepeatedRead {
  readonly path: string;
  readonly reads: number;
  readonly tokens: number;
}

export interface TranscriptReport {
  readonly file: string;
  readonly source: Transcript['source'];
  readonly session_id: string;
  readonly context_method: string;
  readonly requests: readonly RequestRow[];
  readonly totals: {
    readonly requests: number;
    readonly cumulative_context: number;
    readonly cumulative_output: number;
    readonly peak_context: number;
    readonly last_context: number;
    /** Cache reads over all context tokens; null where the source reports no cache figures. */
    readonly cache_hit_share: number | null;
  };
  readonly fills: {
    readonly tool_results_tokens: number;
    readonly by_tool: readonly FillRow[];
    readonly by_command: readonly FillRow[];
    readonly repeated_reads: readonly RepeatedRead[];
    /** System prompt + tool schemas, inferred as the first request's context minus the messages it carried. */
    readonly prefix_tokens_inferred: number | null;
  };
  readonly compactions: readonly { request_index: number; trigger: string | null; pre_tokens: number | null }[];
  readonly skipped_lines: number;
}

export function transcriptReport(transcript: Transcript, count: (text: string) => number): TranscriptReport {
  const requests = transcript.requests.map(requestRow);
  const contexts = requests.map((r) => r.context);
  const cumulative = sum(contexts);
  const reportsCache = transcript.source === 'claude-code';
  const toolTokens = transcript.tools.map((tool) => ({ tool, tokens: count(tool.output) }));
  const byTool = group(toolTokens.map(({ tool, tokens }) => [tool.tool, tokens] as const));
  const byCommand = group(
    toolTokens.filter(({ tool }) => tool.kind === 'shell' && tool.command !== null).map(({ tool, tokens }) => [commandLabel(tool.command ?? ''), tokens] as const),
  );
  return {
    file: transcript.file,
    source: transcript.source,
    session_id: transcript.sessionId,
    context_method: transcript.requests[0]?.method ?? 'reported_usage',
    requests,
    totals: {
      requests: requests.length,
      cumulative_context: cumulative,
      cumulative_output: sum(requests.map((r) => r.output)),
      peak_context: Math.max(0, ...contexts),
      last_context: requests.filter((r) => !r.sidechain).at(-1)?.context ?? 0,
      cache_hit_share: reportsCache && cumulative > 0 ? sum(requests.map((r) => r.cache_read)) / cumulative : null,
    },
    fills: {
      tool_results_tokens: sum(toolTokens.map((t) => t.tokens)),
      by_tool: byTool,
      by_command: byCommand,
      repeated_reads: repeatedReads(toolTokens),
      prefix_tokens_inferred: inferPrefix(transcript, count),
    },
    compactions: transcript.compactions.map((c) => ({ request_index: c.requestIndex, trigger: c.trigger, pre_tokens: c.preTokens })),
    skipped_lines: transcript.skipped,
  };
}

function requestRow(r: TranscriptRequest): RequestRow {
  return {
    index: r.index,
    id: r.id,
    input: r.inputTokens,
    cache_read: r.cacheReadTokens,
    cache_write: r.cacheWriteTokens,
    output: r.outputTokens,
    context: r.contextTokens,
    sidechain: r.sidechain,
  };
}

/** `git status -s` -> `git status`; `npm run build` -> `npm run`; `cd app && ls -la` -> `ls` (the first real program). */
export function commandLabel(command: string): string {
  const segments = command.split(/&&|\|\||;|\|/u).map((s) => s.trim()).filter((s) => s !== '');
  const segment = segments.find((s) => !/^(cd|export|source|set|pushd)\b/u.test(s)) ?? segments[0] ?? command;
  const argv = staticArgv(segment) ?? segment.split(/\s+/u);
  const [program = '', sub] = argv;
  const name = program.split('/').at(-1) ?? program;
  return sub !== undefined && /^[a-z][\w:-]*$/u.test(sub) ? `${name} ${sub}` : name;
}

function group(entries: readonly (readonly [string, number])[]): FillRow[] {
  const rows = new Map<string, { calls: number; tokens: number }>();
  for (const [name, tokens] of entries) {
    const row = rows.get(name) ?? { calls: 0, tokens: 0 };
    rows.set(name, { calls: row.calls + 1, tokens: row.tokens + tokens });
  }
  return [...rows].map(([name, row]) => ({ name, ...row })).sort((a, b) => b.tokens - a.tokens || a.name.localeCompare(b.name));
}

function repeatedReads(tools: readonly { tool: Transcript['tools'][number]; tokens: number }[]): RepeatedRead[] {
  const reads = new Map<string, { reads: number; tokens: number }>();
  for (const { tool, tokens } of tools) {
    if (tool.kind !== 'read' || tool.filePath === null) continue;
    const row = reads.get(tool.filePath) ?? { reads: 0, tokens: 0 };
    reads.set(tool.filePath, { reads: row.reads + 1, tokens: row.tokens + tokens });
  }
  return [...reads]
    .filter(([, row]) => row.reads > 1)
    .map(([path, row]) => ({ path, ...row }))
    .sort((a, b) => b.tokens - a.tokens);
}

/** The first main-chain request carried the prefix plus the messages before it; what the messages do not explain is prefix. */
function inferPrefix(transcript: Transcript, count: (text: string) => number): number | null {
  const first = transcript.requests.find((r) => !r.sidechain);
  if (first === undefined || first.method !== 'reported_usage') return null;
  const carried = sum(transcript.messages.filter((m) => m.requestIndex <= first.index && m.role !== 'assistant').map((m) => count(m.text)));
  return Math.max(0, first.contextTokens - carried);
}

const sum = (values: readonly number[]): number => values.reduce((total, v) => total + v, 0);
