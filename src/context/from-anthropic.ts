/**
 * Builds a TELOS IR from an Anthropic Messages request body (what Claude Code sends). Tools and system are PIN;
 * history is FOLD; `role: "system"` messages Claude Code interleaves (environment, reminders) are DROP. Block ids
 * are positional, so the same request always gives the same IR.
 */
import * as z from 'zod/mini';
import { checkInvariant, type Band, type Block, type BlockKind, type ContextIR, type IrMessage } from './ir.ts';

export const AnthropicRequestBody = z.looseObject({
  model: z.string(),
  tools: z.optional(z.array(z.looseObject({}))),
  system: z.optional(z.union([z.string(), z.array(z.looseObject({}))])),
  messages: z.array(z.looseObject({ role: z.string(), content: z.union([z.string(), z.array(z.unknown())]) })),
});
export type AnthropicRequestBody = z.infer<typeof AnthropicRequestBody>;

const kindOf = (block: unknown): BlockKind => {
  const type = typeof block === 'object' && block !== null ? (block as Record<string, unknown>)['type'] : undefined;
  return type === 'tool_use' || type === 'tool_result' ? type : type === 'text' ? 'text' : 'other';
};

/** Strips request-side `cache_control` so the planner, not the caller, decides the markers. */
function stripCacheControl(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const { cache_control: _ignored, ...rest } = value as Record<string, unknown>;
  return rest;
}

export function irFromAnthropic(body: AnthropicRequestBody): ContextIR {
  const tools: Block[] = (body.tools ?? []).map((tool, index) => ({ id: `t${index}`, band: 'PIN', kind: 'tool', content: stripCacheControl(tool) }));
  const systemBlocks = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? []);
  const system: Block[] = systemBlocks.map((block, index) => ({ id: `s${index}`, band: 'PIN', kind: 'text', content: stripCacheControl(block) }));
  const messages: IrMessage[] = body.messages.map((message, m) => {
    const band: Band = message.role === 'system' ? 'DROP' : 'FOLD';
    const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    const blocks = content.map((block, b): Block => ({ id: `m${m}.${b}`, band, kind: kindOf(block), content: stripCacheControl(block) }));
    return { role: message.role === 'assistant' ? 'assistant' : 'user', blocks };
  });
  const ir: ContextIR = { tools, system, refPool: [], messages };
  checkInvariant(ir);
  return ir;
}
