/**
 * LangChain.js tools behind Tokenless: each wrapped tool runs pre_tool on its arguments (when its contract names a
 * command field), runs the original tool, and returns post_tool's view as the ToolMessage content with the original
 * output kept as the message's artifact, so the host still has every byte for its own use.
 */
import { randomUUID } from 'node:crypto';
import { DynamicStructuredTool, type StructuredToolInterface } from '@langchain/core/tools';
import type { RunnableConfig } from '@langchain/core/runnables';
import * as z from 'zod/mini';
import type { TokenlessSession } from '../session.ts';

const RETRIEVE_DESCRIPTION = 'Return the exact original text that a <<tokenless:KEY>> marker stands for.';
/** zod 4 schemas (the mini build too) are what LangChain converts to JSON Schema for every provider. */
const RetrieveArgs = z.strictObject({ marker: z.string().check(z.minLength(1)) });

/** The retrieve tool: answers only markers this conversation was shown; its output is never compressed. */
export function retrieveTool(session: TokenlessSession): StructuredToolInterface {
  return new DynamicStructuredTool({
    name: session.sdk.retrieveToolName,
    description: RETRIEVE_DESCRIPTION,
    schema: RetrieveArgs,
    func: async (input) => session.retrieve(input.marker),
  });
}

/** The tool with Tokenless in front; a tool without a contract is returned as it is. */
export function wrapTool(session: TokenlessSession, original: StructuredToolInterface): StructuredToolInterface {
  if (session.contracts.get(original.name) === undefined) return original;
  return new DynamicStructuredTool({
    name: original.name,
    description: original.description,
    schema: original.schema,
    responseFormat: 'content_and_artifact',
    func: async (input: unknown, _runManager, config) => {
      const toolUseId = toolCallIdOf(config) ?? `langchain-${randomUUID()}`;
      const args = isRecord(input) ? await session.toolArguments(original.name, toolUseId, input) : input;
      // Without the tool call in its config the original returns its raw output instead of a ToolMessage.
      const raw: unknown = await original.invoke(args, { ...config, toolCall: undefined });
      const view = await session.toolResult(original.name, toolUseId, textOf(raw));
      return [view, raw];
    },
  });
}

function toolCallIdOf(config: RunnableConfig | undefined): string | undefined {
  if (config === undefined || !('toolCall' in config)) return undefined;
  const call: unknown = config.toolCall;
  return isRecord(call) && typeof call['id'] === 'string' ? call['id'] : undefined;
}

/** The text a chat model would be sent for a tool's output. */
function textOf(raw: unknown): string {
  return typeof raw === 'string' ? raw : JSON.stringify(raw) ?? '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
