/**
 * Splits a large document into CAL chunks along its structure: Markdown headings first, then blank-line
 * paragraphs, then lines, so a chunk never cuts a paragraph unless the paragraph alone is over budget. Triggers are
 * the heading's words plus the section's most frequent distinctive words; the summary is its first sentence.
 */
import { estimateTokens } from '../tokens/estimate.ts';
import type { Chunk } from './chunks.ts';

export interface ChunkerOptions {
  readonly maxTokens: number;
  readonly idPrefix: string;
  readonly maxTriggers: number;
}

export const CHUNKER_DEFAULTS: ChunkerOptions = { maxTokens: 800, idPrefix: 'doc', maxTriggers: 8 };

const STOPWORDS = new Set(
  'the and for are but not you all any can had her was one our out has have that this with from they will would there their what about which when make like time just know take into your some could them than then look only come over such also back after use two how its well way even want because these give most very'.split(' '),
);

interface Section {
  readonly path: string[];
  readonly body: string;
}

export function chunkDocument(text: string, options: ChunkerOptions = CHUNKER_DEFAULTS): Chunk[] {
  const chunks: Chunk[] = [];
  const used = new Map<string, number>();
  for (const section of sections(text)) {
    for (const piece of pack(section.body, options.maxTokens)) {
      const base = `${options.idPrefix}-${slug(section.path.join(' ')) || 'intro'}`;
      const n = (used.get(base) ?? 0) + 1;
      used.set(base, n);
      chunks.push({
        id: n === 1 ? base : `${base}-${n}`,
        triggers: triggersOf(section.path, piece, options.maxTriggers),
        summary: firstSentence(piece),
        mandatory: false,
        content: piece,
      });
    }
  }
  return chunks;
}

function sections(text: string): Section[] {
  const out: Section[] = [];
  const path: string[] = [];
  let lines: string[] = [];
  let inFence = false;
  const flush = () => {
    const body = lines.join('\n').trim();
    if (body !== '') out.push({ path: [...path], body });
    lines = [];
  };
  for (const line of text.split(/\r?\n/)) {
    if (/^(```|~~~)/.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading !== null) {
      flush();
      const level = heading[1]!.length;
      path.length = Math.min(path.length, level - 1);
      path[level - 1] = heading[2]!;
      for (let i = 0; i < level - 1; i += 1) path[i] ??= '';
    }
    lines.push(line);
  }
  flush();
  return out.map((section) => ({ ...section, path: section.path.filter((part) => part !== '') }));
}

/** Greedy packing of paragraphs (then lines) into pieces of at most `maxTokens`. */
function pack(body: string, maxTokens: number): string[] {
  const units = body.split(/\n\s*\n/).flatMap((paragraph) => (estimateTokens(paragraph) > maxTokens ? paragraph.split('\n') : [paragraph]));
  const pieces: string[] = [];
  let current = '';
  for (const unit of units) {
    const next = current === '' ? unit : `${current}\n\n${unit}`;
    if (current !== '' && estimateTokens(next) > maxTokens) {
      pieces.push(current);
      current = unit;
    } else current = next;
  }
  if (current.trim() !== '') pieces.push(current);
  return pieces;
}

function triggersOf(path: readonly string[], text: string, max: number): string[] {
  const words = (value: string) => (value.toLowerCase().match(/[\p{L}][\p{L}\p{N}_-]{2,}/gu) ?? []).filter((word) => !STOPWORDS.has(word));
  const heading = [...new Set(path.flatMap(words))];
  const counts = new Map<string, number>();
  for (const word of words(text)) counts.set(word, (counts.get(word) ?? 0) + 1);
  const frequent = [...counts].filter(([word]) => !heading.includes(word)).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([word]) => word);
  return [...heading, ...frequent].slice(0, max);
}

function firstSentence(text: string): string {
  const prose = text.replace(/^#{1,6}\s+.*$/m, '').trim();
  const match = /^[\s\S]*?[.!?](\s|$)/.exec(prose);
  return (match?.[0] ?? prose).replace(/\s+/g, ' ').trim().slice(0, 200);
}

const slug = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 60);
