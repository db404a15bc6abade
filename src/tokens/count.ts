/**
 * Real o200k token counts for reported figures. The rank table costs about a second to build, so it is loaded by
 * dynamic import on first use and never on the hook path (a test checks the hook chunks).
 */
import type { Tiktoken } from 'js-tiktoken/lite';

let encoder: Promise<Tiktoken> | null = null;

async function loadEncoder(): Promise<Tiktoken> {
  const [{ Tiktoken: Encoder }, ranks] = await Promise.all([
    import('js-tiktoken/lite'),
    import('js-tiktoken/ranks/o200k_base'),
  ]);
  return new Encoder(ranks.default);
}

/** Exact o200k token count. Special-token strings in tool output (`<|endoftext|>`) are counted as plain text. */
export async function countTokens(text: string): Promise<number> {
  encoder ??= loadEncoder();
  const enc = await encoder;
  return enc.encode(text, [], []).length;
}

/** A counter bound once, for loops over many texts. */
export async function tokenCounter(): Promise<(text: string) => number> {
  encoder ??= loadEncoder();
  const enc = await encoder;
  return (text: string) => enc.encode(text, [], []).length;
}
