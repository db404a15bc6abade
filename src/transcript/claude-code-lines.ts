/**
 * What every reader of a Claude Code JSONL transcript shares: the content block schema, reading line by line
 * (unreadable lines reported, never fatal), and pairing a `tool_result` with the `tool_use` it answers. The turn model
 * (claude-code-turns.ts) and the session replay (src/replay/transcript.ts) each keep what they need from the lines.
 */
import * as z from 'zod/mini';
import { recordLines } from './records.ts';

/** One block of a message's content: text, tool_use (id, name, input) or tool_result (tool_use_id, content). */
export const ContentBlock = z.looseObject({
  type: z.string(),
  text: z.optional(z.string()),
  id: z.optional(z.string()),
  name: z.optional(z.string()),
  input: z.optional(z.unknown()),
  tool_use_id: z.optional(z.string()),
  content: z.optional(z.unknown()),
  is_error: z.optional(z.boolean()),
});
export type ContentBlock = z.infer<typeof ContentBlock>;

/** A message's content as blocks (a plain string has none). */
export const MessageContent = z.optional(z.union([z.string(), z.array(ContentBlock)]));

/** Each non-blank record (a JSONL line or a `chat.json` array entry), parsed with `schema`; null for one that is not
 * JSON or does not match. */
export function* transcriptLines<T>(text: string, schema: z.ZodMiniType<T>): Generator<{ readonly line: T; readonly raw: string } | null> {
  for (const raw of recordLines(text)) {
    if (raw.trim() === '') continue;
    yield parseLine(raw, schema);
  }
}

function parseLine<T>(raw: string, schema: z.ZodMiniType<T>): { line: T; raw: string } | null {
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? { line: parsed.data, raw } : null;
  } catch {
    return null;
  }
}

export interface ToolUse {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/**
 * The tool calls seen so far, by id: an assistant line's `tool_use` blocks are remembered, and a later user line's
 * `tool_result` finds the call it answers (undefined when the transcript lost it).
 */
export class ToolCalls<T extends ToolUse = ToolUse> {
  readonly #calls = new Map<string, T>();

  /** The call a tool_use block makes, or null for any other block. */
  static of(block: ContentBlock): (ToolUse & { readonly id: string }) | null {
    if (block.type !== 'tool_use' || block.id === undefined) return null;
    return { id: block.id, name: block.name ?? 'unknown', input: isRecord(block.input) ? block.input : {} };
  }

  remember(id: string, call: T): void {
    this.#calls.set(id, call);
  }

  answeredBy(block: ContentBlock): T | undefined {
    return block.tool_use_id === undefined ? undefined : this.#calls.get(block.tool_use_id);
  }
}

/** A tool_result's content as the model saw it, one entry per part: its text, or '' (an image counts as nothing). */
export function resultParts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.map((part: unknown) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : ''));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
