import type { BeforeModelRequest, BeforeModelResult, ToolDefinition } from '../protocol/schemas.ts';
import { compressTools, LOSSLESS_SCHEMA, SCHEMA_DEFAULTS, type CompressedTools, type ToolReport } from '../schema/compress.ts';
import { selectTools } from '../schema/stubs.ts';
import { toolNameOf, toolParts } from '../schema/tool-shape.ts';
import { markerFor, markersIn, parseMarker } from '../store/marker.ts';
import { estimateTokens } from '../tokens/estimate.ts';
import { arbitrate } from './arbitrate.ts';
import { lossless, retrievable } from '../reduce/candidate.ts';
import { commit } from './commit.ts';
import type { Runtime } from './runtime.ts';

export const RETRIEVE_TOOL_NAME = 'tokenless_retrieve';

const RETRIEVE_DESCRIPTION = 'Return the exact original text that a <<tokenless:KEY>> marker stands for.';
const RETRIEVE_PARAMETERS = {
  type: 'object',
  properties: { marker: { type: 'string', description: `The marker, e.g. ${markerFor('0123456789abcdef01234567')}` } },
  required: ['marker'],
  additionalProperties: false,
};

/** The tool an agent calls to recover an elided original; published only while some marker is visible. */
export const RETRIEVE_TOOL: ToolDefinition = {
  type: 'function',
  function: { name: RETRIEVE_TOOL_NAME, description: RETRIEVE_DESCRIPTION, parameters: RETRIEVE_PARAMETERS },
};

/** The same tool in Anthropic's dialect, published when the caller's tools are Anthropic tool definitions. */
export const RETRIEVE_TOOL_ANTHROPIC: ToolDefinition = { name: RETRIEVE_TOOL_NAME, description: RETRIEVE_DESCRIPTION, input_schema: RETRIEVE_PARAMETERS };

export type SchemaReport = {
  readonly before_bytes: number;
  readonly after_bytes: number;
  readonly before_tokens: number;
  readonly after_tokens: number;
  readonly token_method: 'estimated';
  readonly tools: readonly ToolReport[];
};

type Outcome = { ok: true; result: BeforeModelResult } | { ok: false; reason: string };

/**
 * before_model: optional CAL tool tiers, then recoverable schema compression (originals stashed and the markers
 * recorded as shown before the compressed tools are returned), then the exact set of visible markers and the
 * retrieve tool when that set is non-empty. Duplicate tool names fail fast. The same input gives the same bytes.
 */
export function beforeModel(runtime: Runtime, request: BeforeModelRequest): Outcome {
  const { input } = request;
  const duplicate = findDuplicateName(input.tools);
  if (duplicate !== null) return { ok: false, reason: `duplicate tool name: ${duplicate}` };
  const visible = new Set<string>();
  for (const marker of input.visible_markers ?? []) {
    const key = parseMarker(marker);
    if (key !== null) visible.add(key);
  }
  if (input.messages !== undefined) {
    for (const key of shownInSession(runtime, request.attribution.session_id, markersIn(JSON.stringify(input.messages)))) visible.add(key);
  }

  let tools = input.tools;
  const extra: Partial<BeforeModelResult> = {};
  if (input.tool_stubs !== undefined && !runtime.config.disabled) {
    const selection = selectTools(tools, {
      query: input.tool_stubs.query,
      messages: input.messages ?? [],
      ...(input.tool_stubs.core_tools !== undefined ? { coreTools: input.tool_stubs.core_tools } : {}),
      ...(input.tool_stubs.triggers !== undefined ? { triggers: input.tool_stubs.triggers } : {}),
    });
    tools = selection.tools;
    extra.tool_tier = selection.tier;
    extra.history_protected = selection.historyProtected;
  }

  const mode = runtime.config.disabled ? 'off' : (input.schema_compression ?? 'recoverable');
  const compressed = mode === 'off' ? null : compressOrFallback(runtime, request, tools, mode);
  let disposition: BeforeModelResult['disposition'] = mode === 'off' ? 'passthrough' : 'no_savings';
  let reason: string | undefined = mode === 'off' ? 'schema compression is off' : 'no tool definition got shorter';
  if (compressed !== null) {
    disposition = compressed.disposition;
    reason = compressed.reason;
    if (compressed.disposition === 'applied') {
      tools = compressed.tools.tools;
      for (const key of compressed.tools.stash.map((entry) => entry.key)) visible.add(key);
    }
    extra.schema_report = compressed.report;
  }
  const visibleMarkers = [...visible].sort();
  const hasRetrieve = tools.some((tool) => toolNameOf(tool) === RETRIEVE_TOOL_NAME);
  return {
    ok: true,
    result: {
      disposition,
      tools,
      visible_markers: visibleMarkers,
      ...(visibleMarkers.length > 0 && !hasRetrieve ? { retrieve_tool: retrieveToolFor(tools) } : {}),
      ...(reason !== undefined ? { reason } : {}),
      ...extra,
    },
  };
}

/**
 * A marker's text in the conversation is not proof it was shown to this session: the model may have typed it, or a
 * tool may have echoed one from another session (a file that contains a marker). Only markers the stash recorded as
 * shown in this session count; when the stash cannot be read, none do.
 */
function shownInSession(runtime: Runtime, sessionId: string, keys: readonly string[]): string[] {
  if (keys.length === 0) return [];
  try {
    return keys.filter((key) => runtime.stash.wasShown(sessionId, key));
  } catch {
    return [];
  }
}

interface Compression {
  readonly disposition: BeforeModelResult['disposition'];
  readonly tools: CompressedTools;
  readonly report: SchemaReport;
  readonly reason?: string;
}

/**
 * Adopts the compressed tools only when strictly shorter in bytes and estimated tokens. When the stash cannot take
 * the originals, falls back to the lossless rewrite (which needs none) rather than showing unretrievable cuts.
 */
function compressOrFallback(runtime: Runtime, request: BeforeModelRequest, tools: readonly ToolDefinition[], mode: 'recoverable' | 'lossless'): Compression | null {
  const original = JSON.stringify(tools);
  const attempt = (options: typeof SCHEMA_DEFAULTS): Compression | null => {
    const result = compressTools(tools, options);
    const output = JSON.stringify(result.tools);
    const candidate = result.stash.length > 0 ? retrievable(output, result.operations, result.stash) : lossless(output, result.operations);
    const adopted = arbitrate(original, [candidate]);
    if (adopted === null) return null;
    const committed = commit(runtime, original, adopted, {
      lifecycle: 'before_model',
      agentId: request.attribution.agent_id,
      sessionId: request.attribution.session_id,
      toolUseId: request.attribution.tool_use_id,
      toolName: 'tools',
      origin: 'tool_schemas',
      contentType: 'json',
    });
    const applied = committed.disposition === 'applied';
    return {
      disposition: committed.disposition,
      tools: result,
      report: {
        before_bytes: Buffer.byteLength(original),
        after_bytes: applied ? Buffer.byteLength(output) : Buffer.byteLength(original),
        before_tokens: adopted.beforeTokens,
        after_tokens: applied ? adopted.afterTokens : adopted.beforeTokens,
        token_method: 'estimated',
        tools: result.report,
      },
      ...(committed.reason !== undefined ? { reason: committed.reason } : {}),
    };
  };
  const first = attempt(mode === 'lossless' ? LOSSLESS_SCHEMA : SCHEMA_DEFAULTS);
  if (first?.disposition === 'recoverability_unavailable' && mode === 'recoverable') {
    const fallback = attempt(LOSSLESS_SCHEMA);
    if (fallback !== null) return { ...fallback, reason: `${first.reason ?? 'stash unavailable'}; lossless rewrite only` };
  }
  if (first === null) return { disposition: 'no_savings', tools: { tools: [...tools], stash: [], report: [], operations: [] }, report: emptyReport(original), reason: 'no tool definition got shorter' };
  return first;
}

function emptyReport(original: string): SchemaReport {
  const bytes = Buffer.byteLength(original);
  const tokens = estimateTokens(original);
  return { before_bytes: bytes, after_bytes: bytes, before_tokens: tokens, after_tokens: tokens, token_method: 'estimated', tools: [] };
}

/** The retrieve tool in the dialect of the caller's own tools (OpenAI unless they are Anthropic definitions). */
function retrieveToolFor(tools: readonly ToolDefinition[]): ToolDefinition {
  const dialect = tools.map(toolParts).find((parts) => parts !== null)?.dialect;
  return dialect === 'anthropic' ? RETRIEVE_TOOL_ANTHROPIC : RETRIEVE_TOOL;
}

/** Name of an OpenAI function tool (`function.name`) or an Anthropic tool (`name`). */
export const toolName = toolNameOf;

function findDuplicateName(tools: readonly ToolDefinition[]): string | null {
  const seen = new Set<string>();
  for (const tool of tools) {
    const name = toolNameOf(tool);
    if (name === null) continue;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return null;
}
