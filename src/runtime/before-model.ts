import type { BeforeModelRequest, BeforeModelResult, ToolDefinition } from '../protocol/schemas.ts';
import { markersIn, parseMarker } from '../store/marker.ts';

export const RETRIEVE_TOOL_NAME = 'tokenless_retrieve';

/** The tool an agent calls to recover an elided original; published only while some marker is visible. */
export const RETRIEVE_TOOL: ToolDefinition = {
  type: 'function',
  function: {
    name: RETRIEVE_TOOL_NAME,
    description: 'Return the exact original text that a <<tokenless:KEY>> marker stands for.',
    parameters: {
      type: 'object',
      properties: { marker: { type: 'string', description: 'The marker, e.g. <<tokenless:0123456789abcdef01234567>>' } },
      required: ['marker'],
      additionalProperties: false,
    },
  },
};

/**
 * before_model: computes the exact set of markers visible to the model (the caller's set plus any marker found in
 * the messages) and publishes the retrieve tool when it is non-empty. Duplicate tool names fail fast.
 */
export function beforeModel(request: BeforeModelRequest): { ok: true; result: BeforeModelResult } | { ok: false; reason: string } {
  const { tools, messages, visible_markers: given } = request.input;
  const duplicate = findDuplicateName(tools);
  if (duplicate !== null) return { ok: false, reason: `duplicate tool name: ${duplicate}` };
  const visible = new Set<string>();
  for (const marker of given ?? []) {
    const key = parseMarker(marker);
    if (key !== null) visible.add(key);
  }
  if (messages !== undefined) for (const key of markersIn(JSON.stringify(messages))) visible.add(key);
  const visibleMarkers = [...visible].sort();
  const hasRetrieve = tools.some((tool) => toolName(tool) === RETRIEVE_TOOL_NAME);
  return {
    ok: true,
    result: {
      disposition: 'passthrough',
      tools,
      visible_markers: visibleMarkers,
      ...(visibleMarkers.length > 0 && !hasRetrieve ? { retrieve_tool: RETRIEVE_TOOL } : {}),
    },
  };
}

/** Name of an OpenAI function tool (`function.name`) or an Anthropic tool (`name`). */
export function toolName(tool: ToolDefinition): string | null {
  const fn = tool['function'];
  if (typeof fn === 'object' && fn !== null && 'name' in fn && typeof fn.name === 'string') return fn.name;
  const name = tool['name'];
  return typeof name === 'string' ? name : null;
}

function findDuplicateName(tools: readonly ToolDefinition[]): string | null {
  const seen = new Set<string>();
  for (const tool of tools) {
    const name = toolName(tool);
    if (name === null) continue;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return null;
}
