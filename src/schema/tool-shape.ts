/**
 * Reads and rebuilds the two tool-definition dialects before_model accepts: OpenAI function-calling
 * (`{type: "function", function: {name, description, parameters, strict}}`) and Anthropic custom tools
 * (`{name, description, input_schema, ...}`). Anything else (Anthropic server tools such as `bash_20250124`)
 * is `opaque` and is passed through untouched.
 */
import type { ToolDefinition } from '../protocol/schemas.ts';

export type JsonObject = Record<string, unknown>;

export interface ToolParts {
  readonly dialect: 'openai' | 'anthropic';
  readonly name: string;
  readonly description: string | undefined;
  readonly schema: JsonObject | undefined;
}

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The parts we may rewrite, or null for a tool we must not touch. */
export function toolParts(tool: ToolDefinition): ToolParts | null {
  const fn = tool['function'];
  if (tool['type'] === 'function' && isObject(fn) && typeof fn['name'] === 'string') {
    return { dialect: 'openai', name: fn['name'], description: stringOr(fn['description']), schema: objectOr(fn['parameters']) };
  }
  const name = tool['name'];
  if (typeof name === 'string' && isObject(tool['input_schema']) && (tool['type'] === undefined || tool['type'] === 'custom')) {
    return { dialect: 'anthropic', name, description: stringOr(tool['description']), schema: objectOr(tool['input_schema']) };
  }
  return null;
}

/** Name of an OpenAI function tool (`function.name`) or an Anthropic tool (`name`). */
export function toolNameOf(tool: ToolDefinition): string | null {
  const fn = tool['function'];
  if (isObject(fn) && typeof fn['name'] === 'string') return fn['name'];
  const name = tool['name'];
  return typeof name === 'string' ? name : null;
}

/**
 * Rebuilds a tool with a new description and schema, in canonical key order: the named parts first, every other
 * field the caller sent kept (sorted), so the same input always serialises to the same bytes.
 */
export function withParts(tool: ToolDefinition, parts: ToolParts, description: string | undefined, schema: JsonObject | undefined): ToolDefinition {
  if (parts.dialect === 'openai') {
    const fn = tool['function'] as JsonObject;
    const rebuilt: JsonObject = { name: parts.name };
    if (description !== undefined) rebuilt['description'] = description;
    if (schema !== undefined) rebuilt['parameters'] = schema;
    for (const key of sortedRest(fn, ['name', 'description', 'parameters'])) rebuilt[key] = fn[key];
    const out: JsonObject = { type: 'function', function: rebuilt };
    for (const key of sortedRest(tool, ['type', 'function'])) out[key] = tool[key];
    return out;
  }
  const out: JsonObject = { name: parts.name };
  if (description !== undefined) out['description'] = description;
  if (schema !== undefined) out['input_schema'] = schema;
  for (const key of sortedRest(tool, ['name', 'description', 'input_schema'])) out[key] = tool[key];
  return out;
}

function sortedRest(object: JsonObject, named: readonly string[]): string[] {
  return Object.keys(object)
    .filter((key) => !named.includes(key))
    .sort();
}

const stringOr = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const objectOr = (value: unknown): JsonObject | undefined => (isObject(value) ? value : undefined);
