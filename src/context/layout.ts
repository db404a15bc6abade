/**
 * The order blocks reach the wire in, shared by planners and emitters: tools, PIN system, the ref-pool, the rest of
 * the system, then the messages. Each slot has a stable key so a plan made on the layout can be applied to the wire.
 */
import { estimateTokens } from '../tokens/estimate.ts';
import { renderRef, type Band, type Block, type ContextIR } from './ir.ts';

export type SlotSegment = 'tools' | 'system' | 'refpool' | 'messages';

export interface Slot {
  readonly key: string;
  readonly segment: SlotSegment;
  readonly band: Band;
  /** Index of the message for message slots, else -1. */
  readonly message: number;
  /** Estimated tokens of this slot alone. */
  readonly tokens: number;
  /** False for blocks a provider refuses a cache marker on (thinking blocks). */
  readonly markable: boolean;
}

export const slotKey = {
  tool: (block: Block) => `tool:${block.id}`,
  system: (block: Block) => `system:${block.id}`,
  ref: (slug: string) => `ref:${slug}`,
  message: (block: Block) => `msg:${block.id}`,
};

export function layout(ir: ContextIR): Slot[] {
  const slots: Slot[] = [];
  const push = (key: string, segment: SlotSegment, band: Band, content: unknown, message = -1) =>
    slots.push({ key, segment, band, message, tokens: estimateTokens(typeof content === 'string' ? content : JSON.stringify(content)), markable: !isThinking(content) });
  for (const block of ir.tools) push(slotKey.tool(block), 'tools', block.band, block.content);
  for (const block of ir.system.filter((b) => b.band === 'PIN')) push(slotKey.system(block), 'system', block.band, block.content);
  for (const entry of ir.refPool) push(slotKey.ref(entry.slug), 'refpool', 'FOLD', renderRef(entry));
  for (const block of ir.system.filter((b) => b.band !== 'PIN')) push(slotKey.system(block), 'system', block.band, block.content);
  ir.messages.forEach((message, index) => {
    for (const block of message.blocks) push(slotKey.message(block), 'messages', block.band, block.content, index);
  });
  return slots;
}

function isThinking(content: unknown): boolean {
  if (typeof content !== 'object' || content === null) return false;
  const type = (content as Record<string, unknown>)['type'];
  return type === 'thinking' || type === 'redacted_thinking';
}
