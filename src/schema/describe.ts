/**
 * Shortens prose at natural boundaries: whole paragraphs while they fit, then whole sentences, then words.
 * Pure and deterministic, so the same description always shortens to the same bytes.
 */

const ELLIPSIS = '…';

/** `text` unchanged when it fits in `max` characters, else a prefix cut at a boundary and ending in an ellipsis. */
export function shortenProse(text: string, max: number): string {
  if (max <= 0 || text.length <= max) return text;
  // Room for the separator and the ellipsis, so the result never exceeds `max`.
  const budget = max - ELLIPSIS.length - 1;
  const paragraphs = takeWhileFits(text.split(/\n\s*\n/), '\n\n', budget);
  if (paragraphs !== '') return `${paragraphs.trimEnd()}\n${ELLIPSIS}`;
  const sentences = takeWhileFits(text.match(/[^.!?\n]+(?:[.!?]+|\n|$)/g) ?? [], '', budget);
  if (sentences.trim() !== '') return `${sentences.trimEnd()} ${ELLIPSIS}`;
  const cut = text.slice(0, budget);
  const space = cut.lastIndexOf(' ');
  return `${(space > budget / 2 ? cut.slice(0, space) : cut).trimEnd()}${ELLIPSIS}`;
}

function takeWhileFits(parts: readonly string[], separator: string, budget: number): string {
  let out = '';
  for (const part of parts) {
    const next = out === '' ? part : `${out}${separator}${part}`;
    if (next.trimEnd().length > budget) break;
    out = next;
  }
  return out;
}
