/**
 * Part of a stashed original, for an agent that needs one detail and not the whole output back in its context:
 * a line range, the lines matching a pattern with context, or the sections that best match some words (BM25 over
 * the terms of fixed-size sections, ranked as a full-text index would). Every answer is bounded, and says what it
 * showed and how to ask for more. Pure: the caller fetches the original (with its authorisation) and prints.
 */
import { matchLines } from './bounded-regex.ts';

export type PartRequest =
  | { readonly kind: 'lines'; readonly range: LineRange }
  | { readonly kind: 'grep'; readonly pattern: RegExp; readonly source: string; readonly context: number; readonly range: LineRange | null }
  | { readonly kind: 'search'; readonly query: string; readonly top: number; readonly range: LineRange | null };

/** 1-based, inclusive; `to` null means to the end. */
export interface LineRange {
  readonly from: number;
  readonly to: number | null;
}

export interface Part {
  /** Selected text: exact lines for a range; `N:line` / `N-line` (grep -n style) or headed sections otherwise. */
  readonly text: string;
  /** One line saying what was shown and how to get more. */
  readonly note: string;
}

/** An answer stops at whichever comes first; enough for a screenful of a log or a failing test's section. */
export const PART_LIMITS = { maxLines: 200, maxBytes: 16 * 1024 } as const;
export const MAX_CONTEXT = 20;
export const MAX_TOP = 10;
const SECTION_LINES = 30;
const SECTION_MIN_LINES = 3;

/** `A`, `A-B` or `A-` (1-based, inclusive); null when malformed. */
export function parseLineRange(text: string): LineRange | null {
  const match = /^\s*(\d{1,9})\s*(?:(-)\s*(\d{1,9})?)?\s*$/.exec(text);
  if (match === null) return null;
  const from = Number(match[1]);
  const to = match[3] !== undefined ? Number(match[3]) : match[2] !== undefined ? null : from;
  if (from < 1 || (to !== null && to < from)) return null;
  return { from, to };
}

/** Lines with their own endings, so a range prints the original bytes exactly. */
function linesOf(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/u);
}

export function selectPart(original: string, request: PartRequest, retrieveCommand: string): Part {
  const lines = linesOf(original);
  switch (request.kind) {
    case 'lines':
      return lineRange(lines, request.range, retrieveCommand);
    case 'grep':
      return grep(lines, request, retrieveCommand);
    case 'search':
      return search(lines, request, retrieveCommand);
  }
}

/** Appends while within the limits; a single line longer than maxBytes is cut at a character boundary. */
class Budget {
  lines = 0;
  bytes = 0;
  cut = false;
  readonly out: string[] = [];
  fits(text: string): boolean {
    return this.lines < PART_LIMITS.maxLines && this.bytes + Buffer.byteLength(text) <= PART_LIMITS.maxBytes;
  }
  add(text: string): boolean {
    if (this.fits(text)) {
      this.out.push(text);
      this.lines += 1;
      this.bytes += Buffer.byteLength(text);
      return true;
    }
    if (this.lines === 0) {
      // Nothing shown yet: show the head of the line rather than nothing.
      const head = Buffer.from(text).subarray(0, PART_LIMITS.maxBytes).toString('utf8').replace(/\uFFFD$/u, '');
      this.out.push(`${head}\n`);
      this.lines = 1;
      this.bytes = Buffer.byteLength(head);
      this.cut = true;
    }
    return false;
  }
}

function withNewline(line: string): string {
  return line.endsWith('\n') ? line : `${line}\n`;
}

function lineRange(lines: readonly string[], range: LineRange, command: string): Part {
  const total = lines.length;
  if (range.from > total) return { text: '', note: `[tokenless retrieve: the original has ${total} lines; nothing from line ${range.from}]` };
  const last = Math.min(range.to ?? total, total);
  const budget = new Budget();
  let shownTo = range.from - 1;
  for (let n = range.from; n <= last; n++) {
    const added = budget.add(lines[n - 1] ?? '');
    if (budget.cut) shownTo = n;
    if (!added) break;
    shownTo = n;
  }
  // Exact bytes: no newline is added, even to a last line that has none.
  const text = budget.cut ? (budget.out[0] ?? '') : budget.out.join('');
  const shown = `lines ${range.from}-${shownTo} of ${total}`;
  if (budget.cut) return { text, note: `[tokenless retrieve: line ${range.from} alone is over ${PART_LIMITS.maxBytes} bytes; shown its first ${PART_LIMITS.maxBytes}; the whole original: ${command}]` };
  if (shownTo < last) return { text, note: `[tokenless retrieve: ${shown} (limit ${PART_LIMITS.maxLines} lines / ${PART_LIMITS.maxBytes} bytes); more: ${command} --lines ${shownTo + 1}-${last}]` };
  return { text, note: `[tokenless retrieve: ${shown}${last === total ? ', to the end' : `; more: ${command} --lines ${last + 1}-`}]` };
}

/** A part that cannot be given (a --grep pattern past its time limit): the caller prints the message and exits 1. */
export class PartRefused extends Error {}

function grep(lines: readonly string[], request: Extract<PartRequest, { kind: 'grep' }>, command: string): Part {
  const first = Math.min(request.range?.from ?? 1, lines.length + 1);
  const last = Math.min(request.range?.to ?? lines.length, lines.length);
  const scoped = lines.slice(first - 1, last).map((line) => line.replace(/\r?\n$/u, ''));
  const matched = matchLines(request.pattern, scoped);
  if (!matched.ok) throw new PartRefused(`--grep ${matched.reason}`);
  const matches = matched.lines.map((i) => i + first);
  const scope = request.range === null ? `${lines.length} lines` : `lines ${request.range.from}-${request.range.to ?? lines.length}`;
  const what = `/${request.source}/`;
  if (matches.length === 0) return { text: '', note: `[tokenless retrieve: no line of ${scope} matches ${what}]` };
  const budget = new Budget();
  let printedTo = 0;
  let lastMatchShown = 0;
  let stopped = false;
  for (const m of matches) {
    const from = Math.max(m - request.context, printedTo + 1, 1);
    const to = Math.min(m + request.context, lines.length);
    if (printedTo > 0 && from > printedTo + 1 && !budget.add('--\n')) {
      stopped = true;
      break;
    }
    for (let n = from; n <= to; n++) {
      const separator = matches.includes(n) ? ':' : '-';
      if (!budget.add(withNewline(`${n}${separator}${(lines[n - 1] ?? '').replace(/\r?\n$/u, '')}`))) {
        stopped = true;
        break;
      }
      printedTo = n;
    }
    if (stopped) break;
    lastMatchShown = m;
  }
  const shownMatches = matches.filter((m) => m <= lastMatchShown).length;
  const head = `[tokenless retrieve: ${matches.length} line${matches.length === 1 ? '' : 's'} of ${scope} match ${what}`;
  if (!stopped) return { text: budget.out.join(''), note: `${head}; all shown]` };
  const quoted = shellQuote(request.source);
  return {
    text: budget.out.join(''),
    note: `${head}; shown ${shownMatches} (limit ${PART_LIMITS.maxLines} lines); more: ${command} --grep ${quoted}${request.context > 0 ? ` -C ${request.context}` : ''} --lines ${printedTo + 1}-${request.range?.to ?? ''}]`,
  };
}

interface Section {
  readonly from: number;
  readonly to: number;
  readonly terms: Map<string, number>;
  readonly length: number;
}

/** Words, lower-cased, with identifiers also split at `_`, `-` and camelCase humps (`statusCode` finds `status`). */
export function termsOf(text: string): string[] {
  const out: string[] = [];
  for (const word of text.match(/[\p{L}\p{N}_]+/gu) ?? []) {
    const lower = word.toLowerCase();
    out.push(lower);
    const parts = word.split(/_+|(?<=[\p{Ll}\p{N}])(?=\p{Lu})/u).filter((p) => p !== '');
    if (parts.length > 1) for (const part of parts) out.push(part.toLowerCase());
  }
  return out;
}

/** Sections: paragraphs (closed at a blank line once they hold a few lines), at most SECTION_LINES lines each. */
function sectionsOf(lines: readonly string[], range: LineRange | null): Section[] {
  const sections: Section[] = [];
  const first = range?.from ?? 1;
  const last = Math.min(range?.to ?? lines.length, lines.length);
  let start = first;
  let filled = 0;
  const close = (end: number): void => {
    if (end >= start) {
      const terms = new Map<string, number>();
      let length = 0;
      for (let n = start; n <= end; n++) {
        for (const term of termsOf(lines[n - 1] ?? '')) {
          terms.set(term, (terms.get(term) ?? 0) + 1);
          length += 1;
        }
      }
      sections.push({ from: start, to: end, terms, length });
    }
    start = end + 1;
    filled = 0;
  };
  for (let n = first; n <= last; n++) {
    const blank = (lines[n - 1] ?? '').trim() === '';
    if (!blank) filled += 1;
    if ((blank && filled >= SECTION_MIN_LINES) || n - start + 1 >= SECTION_LINES) close(n);
  }
  close(last);
  return sections;
}

/** Okapi BM25 (k1 1.2, b 0.75) of each section for the query's distinct terms. */
function rank(sections: readonly Section[], query: readonly string[]): { section: Section; score: number }[] {
  const count = sections.length;
  const average = sections.reduce((sum, s) => sum + s.length, 0) / Math.max(count, 1) || 1;
  const idf = new Map(query.map((term) => {
    const df = sections.filter((s) => s.terms.has(term)).length;
    return [term, Math.log(1 + (count - df + 0.5) / (df + 0.5))] as const;
  }));
  return sections
    .map((section) => {
      let score = 0;
      for (const term of query) {
        const tf = section.terms.get(term) ?? 0;
        if (tf === 0) continue;
        score += (idf.get(term) ?? 0) * ((tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * section.length) / average)));
      }
      return { section, score };
    })
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.section.from - b.section.from);
}

function search(lines: readonly string[], request: Extract<PartRequest, { kind: 'search' }>, command: string): Part {
  const query = [...new Set(termsOf(request.query))];
  const ranked = rank(sectionsOf(lines, request.range), query);
  if (ranked.length === 0) return { text: '', note: `[tokenless retrieve: no section of ${lines.length} lines contains any of: ${query.join(' ')}]` };
  const budget = new Budget();
  let shown = 0;
  for (const { section } of ranked.slice(0, request.top)) {
    if (!budget.add(`── lines ${section.from}-${section.to} ──\n`)) break;
    let whole = true;
    for (let n = section.from; n <= section.to; n++) {
      if (!budget.add(withNewline(lines[n - 1] ?? ''))) {
        whole = false;
        break;
      }
    }
    shown += 1;
    if (!whole) break;
  }
  const rest = ranked.length - shown;
  const more = rest > 0 ? `; more: ${command} --search ${shellQuote(request.query)} --top ${Math.min(shown + request.top, MAX_TOP)}, or --lines A-B` : '';
  return {
    text: budget.out.join(''),
    note: `[tokenless retrieve: ${shown} of ${ranked.length} matching section${ranked.length === 1 ? '' : 's'} (of ${lines.length} lines), best first${more}]`,
  };
}

/** Single quotes for a shell, so the suggested command can be run as printed. */
function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/u.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
