/**
 * Prose stays whole (issue 23, item 5). JSON and JSON Lines whose values are prose (review comments, issue and PR
 * bodies, commit messages, descriptions, documentation strings) are read line by line: the agent fetched them to
 * read them, so a view that cuts one is never a saving, only a retrieval waiting to happen. Arbitration asks
 * `dropsProse` of every lossy candidate for such content and refuses one that loses any line of prose; lossless
 * compaction (whitespace, shared keys folded) is unaffected.
 */
import { parseJsonCached } from './json-scan.ts';

/** A string this long in words, most of them words of a language, is prose whatever its key. */
const MIN_WORDS = 8;
/** Under a key that names prose, fewer words are prose too (a one-line review comment, a short description). */
const MIN_WORDS_UNDER_PROSE_KEY = 3;
const PROSE_KEYS = /^(body|bodyText|comment|comments|message|msg|description|desc|summary|text|content|details|docstring|documentation|readme|note|notes|title|reason|subject)$/i;
const WORD = /^[\p{L}][\p{L}'\u2019-]*[.,;:!?)]*$/u;
/** Bounds for the walk: prose hides in the first levels of a record; nothing deeper or larger is walked. */
const MAX_DEPTH = 12;
const MAX_STRINGS = 200_000;

export function isProse(text: string, underProseKey: boolean): boolean {
  const words = text.split(/\s+/).filter((w) => w !== '');
  if (words.length < (underProseKey ? MIN_WORDS_UNDER_PROSE_KEY : MIN_WORDS)) return false;
  const wordLike = words.filter((w) => WORD.test(w));
  // Sentences are mostly words, and mostly lower-case ones: a list of header names or a command line is neither.
  const lower = wordLike.filter((w) => /^\p{Ll}/u.test(w)).length;
  // Under a key that names prose (an issue body, a review comment), the text is often Markdown: emphasis, links,
  // code spans and list marks are not word-like, yet it is still written to be read line by line.
  const share = underProseKey ? 0.4 : 0.7;
  return wordLike.length >= words.length * share && lower >= words.length * (underProseKey ? 0.2 : 0.3);
}

/** The prose strings of a JSON or JSON Lines text; empty for anything else. */
export function proseValues(content: string): string[] {
  const first = content.trimStart()[0];
  if (first !== '{' && first !== '[') return [];
  const parsed = parseJsonCached(content);
  if (parsed === null) return [];
  const found: string[] = [];
  let seen = 0;
  const walk = (value: unknown, key: string, depth: number): void => {
    if (depth > MAX_DEPTH || seen > MAX_STRINGS) return;
    if (typeof value === 'string') {
      seen += 1;
      if (isProse(value, PROSE_KEYS.test(key))) found.push(value);
      return;
    }
    if (Array.isArray(value)) {
      for (const item of value) walk(item, key, depth + 1);
      return;
    }
    if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) walk(v, k, depth + 1);
  };
  if (parsed.kind === 'document') walk(parsed.value, '', 0);
  else for (const value of parsed.values) walk(value, '', 0);
  return found;
}

/** The non-blank lines of the prose in `content`, each once. */
export function proseLines(content: string): string[] {
  const lines = new Set<string>();
  for (const text of proseValues(content)) {
    for (const line of text.split(/\r?\n/)) {
      const trimmed = line.trim();
      if (trimmed !== '') lines.add(trimmed);
    }
  }
  return [...lines];
}

let lastOriginal: string | undefined;
let lastLines: readonly string[] = [];

/** Whether `output` lacks a line of the prose in `original` (as written, or as a JSON string would escape it). */
export function dropsProse(original: string, output: string): boolean {
  // Arbitration asks once per lossy candidate of the same original.
  if (original !== lastOriginal) {
    lastLines = proseLines(original);
    lastOriginal = original;
  }
  for (const line of lastLines) {
    if (output.includes(line)) continue;
    if (output.includes(JSON.stringify(line).slice(1, -1))) continue;
    return true;
  }
  return false;
}
