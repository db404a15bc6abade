/**
 * Splits a large document into CAL chunks along its structure: Markdown headings first, then whole blocks (front
 * matter, code fences, tables, lists, paragraphs), so a chunk never cuts a block unless the block alone is over budget,
 * and then each part is still well formed (a table keeps its header, a fence is reopened). Triggers are
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
  if (!Number.isInteger(options.maxTokens) || options.maxTokens < 1) throw new RangeError(`maxTokens must be a whole number of 1 or more, got ${options.maxTokens}`);
  const chunks: Chunk[] = [];
  const used = new Map<string, number>();
  for (const section of sections(text)) {
    for (const piece of withHeading(section.body, options.maxTokens)) {
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

/**
 * A section's pieces: its heading line opens the first piece instead of standing alone, and the blocks are packed in
 * what the heading leaves of the budget, so no piece (heading included) goes over it.
 */
function withHeading(body: string, maxTokens: number): string[] {
  const match = /^(#{1,6}\s.*)\n(\s*\n)?/.exec(body);
  if (match === null) return pack(blocksOf(body), maxTokens);
  const prefix = match[2] === undefined ? `${match[1]!}\n` : `${match[1]!}\n\n`;
  const pieces = pack(blocksOf(body.slice(match[0].length)), Math.max(1, maxTokens - estimateTokens(prefix)));
  return pieces.length === 0 ? [match[1]!] : [`${prefix}${pieces[0]!}`, ...pieces.slice(1)];
}

/** The closing line of a fence opened by `open` (same character, at least as long), per CommonMark. */
function closesFence(line: string, open: string): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
  return match !== null && match[1]![0] === open[0] && match[1]!.length >= open.length;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;

/** Length of the YAML front matter block at the start of the lines (0: none). Its lines are never headings. */
function frontMatterLength(lines: readonly string[]): number {
  if (lines[0]?.trim() !== '---') return 0;
  const end = lines.findIndex((line, i) => i > 0 && (line.trim() === '---' || line.trim() === '...'));
  return end < 0 ? 0 : end + 1;
}

function sections(text: string): Section[] {
  const out: Section[] = [];
  const path: string[] = [];
  const all = text.split(/\r?\n/);
  const front = frontMatterLength(all);
  let lines: string[] = all.slice(0, front);
  let fence: string | null = null;
  const flush = () => {
    const body = lines.join('\n').trim();
    if (body !== '') out.push({ path: [...path], body });
    lines = [];
  };
  for (const line of all.slice(front)) {
    if (fence !== null) {
      if (closesFence(line, fence)) fence = null;
      lines.push(line);
      continue;
    }
    fence = FENCE_OPEN.exec(line)?.[1] ?? null;
    const heading = fence !== null ? null : /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
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

type BlockKind = 'front_matter' | 'fence' | 'table' | 'list' | 'paragraph';

/** A structural unit of a section, with its original lines: a chunk boundary falls only between blocks. */
interface Block {
  readonly kind: BlockKind;
  readonly lines: readonly string[];
}

const TABLE_ROW = /^\s*\|/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s+/;
const blank = (line: string): boolean => line.trim() === '';

/**
 * Splits a section into blocks: front matter, fenced code (blank lines and all), a table (consecutive `|` rows), a
 * list (its items, their indented continuations and the blank lines between items), and paragraphs.
 */
function blocksOf(body: string): Block[] {
  const lines = body.split('\n');
  const blocks: Block[] = [];
  let i = 0;
  const take = (kind: BlockKind, end: number): void => {
    blocks.push({ kind, lines: lines.slice(i, end) });
    i = end;
  };
  const front = frontMatterLength(lines);
  if (front > 0) take('front_matter', front);
  while (i < lines.length) {
    const line = lines[i]!;
    if (blank(line)) {
      i += 1;
      continue;
    }
    const open = FENCE_OPEN.exec(line)?.[1];
    if (open !== undefined) {
      let end = i + 1;
      while (end < lines.length && !closesFence(lines[end]!, open)) end += 1;
      take('fence', Math.min(end + 1, lines.length));
    } else if (TABLE_ROW.test(line)) {
      let end = i + 1;
      while (end < lines.length && TABLE_ROW.test(lines[end]!)) end += 1;
      take('table', end);
    } else if (LIST_ITEM.test(line)) {
      take('list', listEnd(lines, i));
    } else {
      let end = i + 1;
      while (end < lines.length && !blank(lines[end]!) && !FENCE_OPEN.test(lines[end]!) && !TABLE_ROW.test(lines[end]!) && !LIST_ITEM.test(lines[end]!)) end += 1;
      take('paragraph', end);
    }
  }
  return blocks;
}

/** A list runs on through item lines, indented lines and blank lines followed by more of the list. */
function listEnd(lines: readonly string[], start: number): number {
  let end = start + 1;
  let last = start + 1;
  while (end < lines.length) {
    const line = lines[end]!;
    if (blank(line)) {
      end += 1;
      continue;
    }
    if (LIST_ITEM.test(line) || /^\s+\S/.test(line)) {
      end += 1;
      last = end;
      continue;
    }
    // A lazy continuation line directly under an item belongs to it; after a blank line it starts a paragraph.
    if (!blank(lines[end - 1]!) && !TABLE_ROW.test(line) && !FENCE_OPEN.test(line)) {
      end += 1;
      last = end;
      continue;
    }
    break;
  }
  return last;
}

const textOf = (block: Block): string => block.lines.join('\n');

/**
 * Greedy packing of whole blocks into pieces of at most `maxTokens`; blocks keep their own lines and are joined by
 * one blank line. A block over budget on its own is split so each part is still well formed: a table repeats its
 * header rows, a code fence is closed and reopened, a list breaks between items, a paragraph between lines.
 */
function pack(blocks: readonly Block[], maxTokens: number): string[] {
  const units = blocks.flatMap((block) => (block.kind !== 'front_matter' && estimateTokens(textOf(block)) > maxTokens ? splitBlock(block, maxTokens) : [textOf(block)]));
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

function splitBlock(block: Block, maxTokens: number): string[] {
  const lines = block.lines;
  switch (block.kind) {
    case 'table': {
      const headerRows = lines.length > 1 && /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/.test(lines[1]!) ? 2 : 0;
      return packLines(lines.slice(headerRows), lines.slice(0, headerRows), [], maxTokens);
    }
    case 'fence': {
      const closed = lines.length > 1 && closesFence(lines.at(-1)!, FENCE_OPEN.exec(lines[0]!)?.[1] ?? '```');
      const close = closed ? lines.at(-1)! : (FENCE_OPEN.exec(lines[0]!)?.[1] ?? '```');
      return packLines(lines.slice(1, closed ? -1 : undefined), [lines[0]!], [close], maxTokens);
    }
    case 'list':
      return packGroups(listItems(lines), maxTokens);
    default:
      return packLines(lines, [], [], maxTokens);
  }
}

/** Lines packed into parts of at most `maxTokens`, each wrapped in `head` and `tail` (a lone line over budget stays whole). */
function packLines(lines: readonly string[], head: readonly string[], tail: readonly string[], maxTokens: number): string[] {
  const parts: string[] = [];
  let current: string[] = [];
  const render = (rows: readonly string[]): string => [...head, ...rows, ...tail].join('\n');
  for (const line of lines) {
    if (current.length > 0 && estimateTokens(render([...current, line])) > maxTokens) {
      parts.push(render(current));
      current = [];
    }
    current.push(line);
  }
  if (current.length > 0 || parts.length === 0) parts.push(render(current));
  return parts;
}

/** A list's top-level items, each with its continuation lines. */
function listItems(lines: readonly string[]): string[][] {
  const indent = (line: string): number => line.length - line.trimStart().length;
  const base = indent(lines[0] ?? '');
  const items: string[][] = [];
  for (const line of lines) {
    if (items.length === 0 || (LIST_ITEM.test(line) && indent(line) <= base)) items.push([line]);
    else items.at(-1)!.push(line);
  }
  return items;
}

/** List items packed into parts of at most `maxTokens`; an item over budget on its own is split between its lines. */
function packGroups(groups: readonly string[][], maxTokens: number): string[] {
  const parts: string[] = [];
  let current: string[] = [];
  const render = (rows: readonly string[]): string => rows.join('\n').trimEnd();
  for (const group of groups) {
    if (current.length > 0 && estimateTokens(render([...current, ...group])) > maxTokens) {
      parts.push(render(current));
      current = [];
    }
    current.push(...group);
  }
  if (current.length > 0) parts.push(render(current));
  return parts.flatMap((part) => (estimateTokens(part) > maxTokens ? packLines(part.split('\n'), [], [], maxTokens) : [part]));
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
