/**
 * One linear pass over JSON text that (a) removes insignificant whitespace without touching any token, and
 * (b) tells whether `JSON.parse` would represent the document faithfully: every number must print back exactly as
 * written (no `1.0`, `1e5`, `-0` or integers past 2^53 that lose digits) and no object may repeat a key (JSON.parse
 * keeps only the last one). Only faithful documents may go through parse -> transform -> stringify; the rest stay token-exact.
 */

export interface ScanResult {
  /** The input with whitespace outside strings removed; every token byte-identical. */
  readonly minified: string;
  /** True when `JSON.stringify(JSON.parse(text))` loses nothing the text says (numbers and keys). */
  readonly faithful: boolean;
}

/** JSON's four whitespace characters (char codes; the scan is hot on 1 MiB inputs). */
function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

/** Characters that may continue a number token: digits, `e`, `E`, `+`, `-`, `.`. */
function isNumberChar(code: number): boolean {
  return (code >= 48 && code <= 57) || code === 101 || code === 69 || code === 43 || code === 45 || code === 46;
}

/** Scans a text already known to be valid JSON (the caller ran JSON.parse); never throws on odd input. */
export function scanJson(text: string): ScanResult {
  const out: string[] = [];
  // One frame per open container: a Set of keys seen for objects, null for arrays.
  const stack: (Set<string> | null)[] = [];
  let expectKey = false;
  let faithful = true;
  let runStart = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) {
      if (i > runStart) out.push(text.slice(runStart, i));
      while (i < n && isSpace(text.charCodeAt(i))) i++;
      runStart = i;
      continue;
    }
    const ch = text[i] as string;
    if (ch === '"') {
      const end = stringEnd(text, i);
      if (expectKey && faithful) {
        const top = stack[stack.length - 1];
        if (top) {
          const key = decodeKey(text.slice(i, end));
          if (top.has(key)) faithful = false;
          top.add(key);
        }
      }
      expectKey = false;
      i = end;
      continue;
    }
    if (ch === '-' || (ch >= '0' && ch <= '9')) {
      let end = i + 1;
      while (end < n && isNumberChar(text.charCodeAt(end))) end++;
      if (faithful) {
        const token = text.slice(i, end);
        // A number survives JSON.parse exactly iff it prints back as written: `1.0`, `1e5`, `-0` and integers
        // past 2^53 that lose digits all fail this; `9007199254740994` passes because it is exactly a double.
        if (String(Number(token)) !== token) faithful = false;
      }
      i = end;
      continue;
    }
    if (ch === '{') {
      stack.push(new Set());
      expectKey = true;
    } else if (ch === '[') {
      stack.push(null);
      expectKey = false;
    } else if (ch === '}' || ch === ']') {
      stack.pop();
    } else if (ch === ',') {
      expectKey = stack[stack.length - 1] instanceof Set;
    }
    i++;
  }
  if (n > runStart) out.push(text.slice(runStart, n));
  return { minified: out.join(''), faithful };
}

/** Index just past the closing quote of the string starting at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote < 0) return text.length;
    let backslashes = 0;
    for (let j = quote - 1; text[j] === '\\'; j--) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    i = quote + 1;
  }
}

function decodeKey(token: string): string {
  // Fast path: most keys carry no escapes, so the raw text between quotes is the key.
  if (!token.includes('\\')) return token.slice(1, -1);
  try {
    return JSON.parse(token) as string;
  } catch {
    return token;
  }
}

export type ParsedJson =
  | { readonly kind: 'document'; readonly value: unknown; readonly scan: ScanResult }
  | {
      readonly kind: 'lines';
      /** Each top-level value's text, verbatim. */
      readonly lines: string[];
      readonly values: unknown[];
      readonly scans: ScanResult[];
      readonly finalNewline: boolean;
    };

/**
 * Parses one JSON document, or a stream of objects/arrays (JSON Lines, or jq's pretty-printed values one after
 * another). Returns null when the text is neither.
 */
export function parseJsonContent(text: string): ParsedJson | null {
  const trimmed = text.trim();
  const first = trimmed[0];
  if (first !== '{' && first !== '[') return null;
  try {
    const value: unknown = JSON.parse(text);
    return { kind: 'document', value, scan: scanJson(text) };
  } catch {
    // Not one document: maybe JSON Lines (one value per non-blank line).
  }
  const lines = splitTopLevel(text);
  if (lines === null || lines.length < 2) return null;
  const values: unknown[] = [];
  const scans: ScanResult[] = [];
  for (const line of lines) {
    try {
      values.push(JSON.parse(line));
    } catch {
      return null;
    }
    scans.push(scanJson(line));
  }
  return { kind: 'lines', lines, values, scans, finalNewline: text.endsWith('\n') };
}

/** The compact text of parsed content: JSON Lines stay one record per line. */
export function compactText(parsed: ParsedJson): string {
  if (parsed.kind === 'document') return parsed.scan.minified;
  return parsed.scans.map((s) => s.minified).join('\n') + (parsed.finalNewline ? '\n' : '');
}

export function isFaithful(parsed: ParsedJson): boolean {
  return parsed.kind === 'document' ? parsed.scan.faithful : parsed.scans.every((s) => s.faithful);
}

let lastText: string | undefined;
let lastParsed: ParsedJson | null = null;

/** parseJsonContent with a one-entry memo: the registry runs several JSON compressors on the same content. */
export function parseJsonCached(text: string): ParsedJson | null {
  if (text !== lastText) {
    lastParsed = parseJsonContent(text);
    lastText = text;
  }
  return lastParsed;
}

/** The texts of consecutive top-level objects/arrays separated by whitespace, or null if anything else is there. */
function splitTopLevel(text: string): string[] | null {
  const values: string[] = [];
  let depth = 0;
  let start = -1;
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (depth === 0) {
      if (isSpace(text.charCodeAt(i))) {
        i++;
        continue;
      }
      if (ch !== '{' && ch !== '[') return null;
      start = i;
    }
    if (ch === '"') {
      i = stringEnd(text, i);
      continue;
    }
    if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) values.push(text.slice(start, i + 1));
    }
    i++;
  }
  return depth === 0 ? values : null;
}
