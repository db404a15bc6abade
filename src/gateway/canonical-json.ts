/**
 * The one guard for every gateway path that re-serialises a request body (the session policies' folds, the lossless
 * tools rewrite). `JSON.stringify(JSON.parse(x))` is not the identity: a number's text can change (`12345678901234567890`
 * becomes `12345678901234567000`, `1.50` becomes `1.5`, `1e400` becomes `null`), a duplicated key loses all but its
 * last value, and bytes that are not UTF-8 become U+FFFD. A body re-serialised from its parse must therefore be one
 * where nothing of that kind happens; any other is forwarded exactly as it came.
 */
import { nestsDeeperThan } from '../protocol/depth.ts';

export interface ParsedBody {
  readonly document: Record<string, unknown>;
  /** The text is byte for byte what JSON.stringify writes for the document (Claude Code's requests are). */
  readonly canonical: boolean;
  /** Null when re-serialising keeps every value; otherwise what it would change (then nothing may re-serialise it). */
  readonly unfaithful: string | null;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The body as a JSON object, with whether it may be re-serialised; null when it is not one (forward it untouched). */
export function parseBody(original: Buffer): ParsedBody | null {
  let text: string;
  let parsed: unknown;
  try {
    text = UTF8.decode(original);
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || nestsDeeperThan(parsed)) return null;
  // Identical output is the common case and proves nothing can change; only otherwise is the text scanned.
  const canonical = JSON.stringify(parsed) === text;
  return { document: parsed as Record<string, unknown>, canonical, unfaithful: canonical ? null : whatReserialisingChanges(text) };
}

/**
 * For valid JSON text: the first number whose text JSON.stringify would write differently, or the first key an object
 * repeats; null when neither occurs. One linear pass, no regular expressions.
 */
export function whatReserialisingChanges(text: string): string | null {
  // One entry per open object (its keys so far) or array (null).
  const open: (Set<string> | null)[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      const top = open.at(-1);
      if (top !== undefined && top !== null && nextNonSpace(text, end) === COLON) {
        const key = JSON.parse(text.slice(i, end)) as string;
        if (top.has(key)) return `key ${JSON.stringify(key)} appears twice in one object`;
        top.add(key);
      }
      i = end;
    } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
      let end = i + 1;
      while (end < text.length && isNumberChar(text.charCodeAt(end))) end += 1;
      const literal = text.slice(i, end);
      const written = JSON.stringify(Number(literal));
      if (written !== literal) return `number ${literal} would become ${written}`;
      i = end;
    } else {
      if (c === OPEN_BRACE) open.push(new Set());
      else if (c === OPEN_BRACKET) open.push(null);
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) open.pop();
      i += 1;
    }
  }
  return null;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Index just past the string literal starting at `start` (a quote). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i += 2;
    else if (c === QUOTE) return i + 1;
    else i += 1;
  }
  return i;
}

function nextNonSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i += 1;
  return text.charCodeAt(i);
}

/** Digits, `.`, `e`/`E`, `+`, `-`: what a JSON number literal is made of. */
function isNumberChar(c: number): boolean {
  return (c >= ZERO && c <= NINE) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === MINUS;
}
