/**
 * Tools for generateText/streamText: the retrieve tool (static across model calls, so the tool list the provider
 * caches never changes), and pre_tool applied to the arguments of tools whose contract names a command field.
 */
import { jsonSchema, tool, type Tool, type ToolExecutionOptions, type ToolSet } from 'ai';
import type { TokenlessSession } from '../session.ts';
import { markerFor } from '../../store/marker.ts';

const RETRIEVE_DESCRIPTION = 'Return the exact original text that a <<tokenless:KEY>> marker stands for.';

/** The retrieve tool: answers only markers this conversation was shown; anything else is a tool error. */
export function retrieveTool(session: TokenlessSession): Tool<{ marker: string }, string> {
  return tool({
    description: RETRIEVE_DESCRIPTION,
    inputSchema: jsonSchema<{ marker: string }>({
      type: 'object',
      properties: { marker: { type: 'string', description: `The marker, e.g. ${markerFor('0123456789abcdef01234567')}` } },
      required: ['marker'],
      additionalProperties: false,
    }),
    execute: async ({ marker }) => session.retrieve(marker),
  });
}

type AnyExecute = (input: unknown, options: ToolExecutionOptions) => unknown;

/** The caller's tools with pre_tool in front of each command tool's execute, plus the retrieve tool. */
export function withTokenlessTools<T extends ToolSet>(session: TokenlessSession, tools: T): T & Record<string, Tool> {
  const out: Record<string, Tool> = {};
  for (const [name, original] of Object.entries(tools)) out[name] = wrapCommandTool(session, name, original);
  out[session.sdk.retrieveToolName] = retrieveTool(session);
  // The keys and tool types are the caller's own; only execute functions were swapped for same-typed wrappers.
  return out as T & Record<string, Tool>;
}

function wrapCommandTool<T extends Tool>(session: TokenlessSession, name: string, original: T): T {
  // ai types execute per tool (input and output generics); the wrapper forwards both untouched.
  const execute = original.execute as AnyExecute | undefined;
  if (execute === undefined || session.contracts.get(name)?.commandField === undefined) return original;
  const wrapped: AnyExecute = async (input, options) => {
    const args = isRecord(input) ? await session.toolArguments(name, options.toolCallId, input) : input;
    return execute(args, options);
  };
  return { ...original, execute: wrapped };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
