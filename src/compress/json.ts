import { elide, retrievable, type StashEntry } from '../reduce/candidate.ts';
import { exactOrStashed } from './inverse.ts';
import { compactText, isFaithful, parseJsonCached, type ParsedJson } from './json-scan.ts';
import { toonIfSmaller } from './toon.ts';
import { trailingWhitespace } from './view.ts';
import type { Compressor } from './types.ts';

/** Thresholds of the recoverable reduction; a reduction below `minChars` of compact JSON is not worth a marker. */
export const JSON_LIMITS = {
  minChars: 6000,
  maxString: 400,
  stringHead: 160,
  maxArray: 24,
  arrayHead: 8,
  arrayTail: 4,
  maxDepth: 12,
  maxLines: 40,
  linesHead: 20,
  linesTail: 10,
} as const;

/**
 * Operation `json_compact`: whitespace outside strings is removed and every token (numbers, escapes, duplicate
 * keys, key order) stays byte-identical; JSON Lines keep one record per line, and the original's trailing
 * whitespace is kept (so `jq . f && echo NEXT` does not glue NEXT onto the JSON). Lossless only when the original
 * was printed the way jq prints (its inverse, `prettyJsonValues`, gives the bytes back); any other layout is
 * retrievable, its original stashed.
 */
export const compactJson: Compressor = (input) => {
  const parsed = parseJsonCached(input.content);
  if (parsed === null) return null;
  return exactOrStashed(input.content, compactView(parsed, input.content), ['json_compact'], 'JSON whitespace removed');
};

/** The compact text of `parsed` followed by the whitespace `original` ended with. */
export function compactView(parsed: ParsedJson, original: string): string {
  return compactText(parsed).trimEnd() + trailingWhitespace(original);
}

/**
 * Operation `json_truncate`, retrievable: long strings keep a head, long arrays keep head and tail items, deep
 * subtrees become a placeholder; each elision names a stash entry holding exactly what was cut (a string's full
 * value, or the compact JSON of the cut items or subtree). Rendered as compact JSON, or TOON when that is smaller.
 */
export const truncateJson: Compressor = (input) => {
  const parsed = parseJsonCached(input.content);
  if (parsed === null || !isFaithful(parsed)) return null;
  const compact = compactText(parsed);
  if (compact.length < JSON_LIMITS.minChars) return null;
  const stash = new Map<string, StashEntry>();
  let output: string;
  if (parsed.kind === 'document') {
    const reduced = reduceValue(parsed.value, 1, stash);
    if (stash.size === 0) return null;
    const trailing = trailingWhitespace(input.content);
    output = JSON.stringify(reduced);
    const toon = toonIfSmaller(reduced, output);
    if (toon !== null) return retrievable(toon + trailing, ['json_truncate', 'toon'], [...stash.values()]);
    output += trailing;
  } else {
    output = reduceLines(parsed, stash) + trailingWhitespace(input.content);
    if (stash.size === 0) return null;
  }
  return retrievable(output, ['json_truncate'], [...stash.values()]);
};

type LinesContent = Extract<ParsedJson, { kind: 'lines' }>;

/** Stashes `original` and returns its marker; identical originals share one entry. */
function stashOf(original: string, stash: Map<string, StashEntry>): string {
  const { entry, marker } = elide(original);
  stash.set(entry.key, entry);
  return marker;
}

/** Placeholder texts; `reconstructJson` in the tests parses exactly these shapes back. */
export const placeholder = {
  string: (head: string, rest: number, marker: string) => `${head}… [+${rest} chars ${marker}]`,
  items: (count: number, marker: string) => `… ${count} more items ${marker}`,
  subtree: (marker: string) => `{…} ${marker}`,
  lines: (count: number, marker: string) => `[… ${count} more lines ${marker}]`,
} as const;

function reduceValue(value: unknown, depth: number, stash: Map<string, StashEntry>): unknown {
  if (typeof value === 'string') {
    if (value.length <= JSON_LIMITS.maxString) return value;
    const head = cutAt(value, JSON_LIMITS.stringHead);
    return placeholder.string(head, value.length - head.length, stashOf(value, stash));
  }
  if (value === null || typeof value !== 'object') return value;
  const isArray = Array.isArray(value);
  const empty = isArray ? value.length === 0 : Object.keys(value).length === 0;
  if (depth > JSON_LIMITS.maxDepth && !empty) return placeholder.subtree(stashOf(JSON.stringify(value), stash));
  if (isArray) {
    const items = value as unknown[];
    if (items.length <= JSON_LIMITS.maxArray) return items.map((item) => reduceValue(item, depth + 1, stash));
    const { arrayHead, arrayTail } = JSON_LIMITS;
    const middle = items.slice(arrayHead, items.length - arrayTail);
    return [
      ...items.slice(0, arrayHead).map((item) => reduceValue(item, depth + 1, stash)),
      placeholder.items(middle.length, stashOf(JSON.stringify(middle), stash)),
      ...items.slice(items.length - arrayTail).map((item) => reduceValue(item, depth + 1, stash)),
    ];
  }
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    // defineProperty keeps a literal "__proto__" key an own property, as JSON.parse made it.
    Object.defineProperty(out, key, { value: reduceValue(child, depth + 1, stash), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** JSON Lines: records reduced one by one; a long run of records keeps head and tail lines around a marker line. */
function reduceLines(parsed: LinesContent, stash: Map<string, StashEntry>): string {
  const render = (i: number): string => {
    const local = new Map<string, StashEntry>();
    const reduced = reduceValue(parsed.values[i], 1, local);
    // A record with nothing elided keeps its own compact text: token-exact, as json_compact would show it.
    if (local.size === 0) return parsed.scans[i]?.minified ?? '';
    for (const [key, entry] of local) stash.set(key, entry);
    return JSON.stringify(reduced);
  };
  const { lines } = parsed;
  const { maxLines, linesHead, linesTail } = JSON_LIMITS;
  if (lines.length <= maxLines) return lines.map((_, i) => render(i)).join('\n');
  const out: string[] = [];
  for (let i = 0; i < linesHead; i++) out.push(render(i));
  const middle = lines.slice(linesHead, lines.length - linesTail);
  out.push(placeholder.lines(middle.length, stashOf(middle.join('\n'), stash)));
  for (let i = lines.length - linesTail; i < lines.length; i++) out.push(render(i));
  return out.join('\n');
}

/** The first `limit` UTF-16 units of `text`, never splitting a surrogate pair. */
function cutAt(text: string, limit: number): string {
  const code = text.charCodeAt(limit - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit);
}
