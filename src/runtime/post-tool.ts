import { classifyContent } from '../compress/classify.ts';
import { commandsOf } from '../compress/command-source.ts';
import { environmentHint } from '../compress/hints.ts';
import { dropsProse } from '../compress/prose.ts';
import { routeContent } from '../compress/policy.ts';
import type { ContentType } from '../compress/types.ts';
import type { PostToolRequest, PostToolResult } from '../protocol/schemas.ts';
import { estimateTokens } from '../tokens/estimate.ts';
import { arbitrate } from './arbitrate.ts';
import { anchorToOriginal } from '../reduce/candidate.ts';
import { commit } from './commit.ts';
import { findFilter } from '../filters/registry.ts';
import { namedView, recognisedView } from '../filters/recognise.ts';
import type { Candidate } from '../reduce/candidate.ts';
import type { ReduceContext } from '../reduce/context.ts';
import type { Runtime } from './runtime.ts';

/**
 * post_tool: route by status, then by the content policy `tokenless run` shares (declared origin, the command that
 * printed it, the content type), adopt only a strictly shorter candidate, stash what is lossy and record it.
 * Retrieve results and failed tools are never compressed.
 */
export interface PostToolOptions {
  /** Where the tool ran (projectOf), when the harness says: a view kind switched to lossless there gets lossless views only. */
  readonly project?: string | undefined;
}

export function postTool(runtime: Runtime, request: PostToolRequest, options: PostToolOptions = {}): PostToolResult {
  const result = decide(runtime, request, options);
  runtime.lastDisposition = result.disposition;
  return result;
}

function decide(runtime: Runtime, request: PostToolRequest, options: PostToolOptions): PostToolResult {
  const { input, attribution } = request;
  const content = input.content;
  if (runtime.config.disabled) return unchanged(content, 'plain_text', 'passthrough', 'TOKENLESS_DISABLED is set');
  if (input.result_kind === 'retrieve') return unchanged(content, 'plain_text', 'passthrough', 'retrieve output is never compressed');
  if (input.status !== 'success') {
    const hint = environmentHint(content);
    const result = unchanged(content, classifyContent(content), 'tool_error', `tool status ${input.status}`);
    return hint === null ? result : { ...result, hint };
  }
  const commands = input.command === undefined ? [] : commandsOf(input.command);
  const { contentType, route, candidates } = routeContent(
    content,
    { origin: input.origin, toolName: input.tool_name, commands },
    runtime.config,
  );
  // A command's own view first, as `tokenless run` would print it; the content compressors when it declines.
  const viewed = route === 'program output' && input.origin === 'command_output' ? commandView(content, commands, runtime) : null;
  // Prose in JSON records is read line by line: a lossy view may fold what is around it, never cut a line of it.
  // Asked only when a lossy candidate is there: the switch lives in stats.db, which a passthrough never opens.
  const anyLossy = candidates.some((candidate) => candidate.recoverability !== 'lossless') || (viewed !== null && viewed.recoverability !== 'lossless');
  const switched = options.project !== undefined && anyLossy && runtime.stats.losslessKinds(options.project).has(contentType);
  const allowed = candidates.filter((candidate) => candidate.recoverability === 'lossless' || (!switched && !dropsProse(content, candidate.output)));
  const allowedView = viewed === null || (switched && viewed.recoverability !== 'lossless') ? null : viewed;
  const adopted =
    (allowedView === null ? null : arbitrate(content, [anchorToOriginal(allowedView, content)])) ??
    arbitrate(content, allowed.map((candidate) => anchorToOriginal(candidate, content)));
  if (adopted === null) return unchanged(content, contentType, 'no_savings', candidates.length === 0 ? `no compressor applies (${route})` : 'no candidate was strictly shorter');
  const committed = commit(runtime, content, adopted, {
    lifecycle: 'post_tool',
    agentId: attribution.agent_id,
    sessionId: attribution.session_id,
    toolUseId: attribution.tool_use_id,
    toolName: input.tool_name,
    origin: input.origin,
    contentType,
    project: options.project,
  });
  const applied = committed.disposition === 'applied';
  return {
    disposition: committed.disposition,
    output: committed.output,
    content_type: contentType,
    applied_operations: applied ? [...adopted.candidate.operations] : [],
    recoverability: applied ? adopted.candidate.recoverability : 'lossless',
    before_tokens: adopted.beforeTokens,
    after_tokens: applied ? adopted.afterTokens : adopted.beforeTokens,
    token_method: 'estimated',
    stash_keys: [...committed.stashKeys],
    visible_markers: [...committed.visibleMarkers],
    ...(committed.reason !== undefined ? { reason: committed.reason } : {}),
  };
}

/**
 * The filter view of a shell command's output the client shows as one text (stdout and stderr merged; a failed
 * call never gets here): the filter its name matches when the line ran one command, else the filter that
 * recognises the output by its content, whatever ran it (a task runner, a script, a remote shell).
 */
function commandView(content: string, commands: readonly (readonly string[])[], runtime: Runtime): Candidate | null {
  const context: ReduceContext = runtime.config;
  const only = commands.length === 1 ? commands[0] : undefined;
  const named = only === undefined ? null : findFilter(only, runtime.fileFilters);
  const output = { argv: only ?? [], stdout: content, stderr: '', exitCode: 0 };
  return (named === null ? null : namedView(output, context, named)) ?? recognisedView(output, context, named);
}

function unchanged(content: string, contentType: ContentType, disposition: PostToolResult['disposition'], reason: string): PostToolResult {
  const tokens = estimateTokens(content);
  return {
    disposition,
    output: content,
    content_type: contentType,
    applied_operations: [],
    recoverability: 'lossless',
    before_tokens: tokens,
    after_tokens: tokens,
    token_method: 'estimated',
    stash_keys: [],
    visible_markers: [],
    reason,
  };
}
