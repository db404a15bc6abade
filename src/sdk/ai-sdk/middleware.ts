/**
 * The language-model middleware: before every model call (generate or stream) it compresses the tool results that
 * are about to enter the prompt (post_tool, once per tool call), then applies before_model to the function tools
 * offered. Tool schemas the model sees change; the schemas generateText validates tool calls against do not.
 *
 * The prompt is deliberately not handed to before_model: it scans messages for marker text and counts what it finds
 * as visible, and a prompt holds text the model wrote itself (a retrieve call's arguments) or a tool echoed. The
 * visible set is only what Tokenless itself showed this conversation.
 */
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3Middleware,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3ToolResultPart,
} from '@ai-sdk/provider';
import type { ToolDefinition } from '../../protocol/schemas.ts';
import type { TokenlessSession } from '../session.ts';

type CallTool = NonNullable<LanguageModelV3CallOptions['tools']>[number];
type JsonSchema = LanguageModelV3FunctionTool['inputSchema'];

export function tokenlessMiddleware(session: TokenlessSession): LanguageModelV3Middleware {
  return {
    specificationVersion: 'v3',
    transformParams: async ({ params }) => {
      const prompt = await compressToolResults(session, params.prompt);
      const tools = params.tools === undefined ? undefined : await prepareTools(session, params.tools);
      return { ...params, prompt, ...(tools !== undefined ? { tools } : {}) };
    },
  };
}

/** Replaces each tool result's output with the view post_tool gives; parts that do not change keep their identity. */
async function compressToolResults(session: TokenlessSession, prompt: LanguageModelV3Prompt): Promise<LanguageModelV3Prompt> {
  const out: LanguageModelV3Prompt = [];
  for (const message of prompt) {
    if (message.role !== 'tool') {
      out.push(message);
      continue;
    }
    const content: typeof message.content = [];
    for (const part of message.content) content.push(part.type === 'tool-result' ? await compressPart(session, part) : part);
    out.push({ ...message, content });
  }
  return out;
}

async function compressPart(session: TokenlessSession, part: LanguageModelV3ToolResultPart): Promise<LanguageModelV3ToolResultPart> {
  const text = outputText(part.output);
  if (text === null) return part;
  const view = await session.toolResult(part.toolName, part.toolCallId, text);
  return view === text ? part : { ...part, output: { type: 'text', value: view } };
}

/** The text a provider would send for a successful output; null for errors, denials and multi-part content. */
function outputText(output: LanguageModelV3ToolResultOutput): string | null {
  if (output.type === 'text') return output.value;
  if (output.type === 'json') return JSON.stringify(output.value);
  return null;
}

/**
 * before_model on the function tools, in OpenAI function-calling shape. Our own retrieve tool and provider tools
 * are left as they are; a compressed tool keeps every field but its description and input schema.
 */
async function prepareTools(session: TokenlessSession, tools: readonly CallTool[]): Promise<CallTool[]> {
  const candidates = tools.filter((tool): tool is LanguageModelV3FunctionTool => tool.type === 'function' && !session.isRetrieveTool(tool.name));
  const result = await session.prepareTools(candidates.map(toOpenAi));
  if (result.disposition !== 'applied') return [...tools];
  const compressed = new Map<string, { description: string | undefined; parameters: JsonSchema | undefined }>();
  for (const tool of result.tools) {
    const fn = fromOpenAi(tool);
    if (fn !== null) compressed.set(fn.name, fn);
  }
  return tools.map((tool) => {
    if (tool.type !== 'function') return tool;
    const next = compressed.get(tool.name);
    if (next === undefined || session.isRetrieveTool(tool.name)) return tool;
    const { description: _description, ...rest } = tool;
    return {
      ...rest,
      ...(next.description !== undefined ? { description: next.description } : {}),
      inputSchema: next.parameters ?? tool.inputSchema,
    };
  });
}

function toOpenAi(tool: LanguageModelV3FunctionTool): ToolDefinition {
  return {
    type: 'function',
    function: { name: tool.name, ...(tool.description !== undefined ? { description: tool.description } : {}), parameters: tool.inputSchema },
  };
}

function fromOpenAi(tool: ToolDefinition): { name: string; description: string | undefined; parameters: JsonSchema | undefined } | null {
  const fn = tool['function'];
  if (typeof fn !== 'object' || fn === null || !('name' in fn) || typeof fn.name !== 'string') return null;
  const description = 'description' in fn && typeof fn.description === 'string' ? fn.description : undefined;
  const parameters = 'parameters' in fn && isJsonSchema(fn.parameters) ? fn.parameters : undefined;
  return { name: fn.name, description, parameters };
}

/** JSON Schema objects (and the boolean schemas JSON Schema 7 allows at nested positions) are plain JSON values. */
function isJsonSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
