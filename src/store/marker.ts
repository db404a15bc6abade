import { sha256 } from './digest.ts';

/** Length in hex digits of a stash key (96 bits of SHA-256): the key the store, stats and protocol use. */
export const KEY_HEX_LENGTH = 24;

/**
 * What the model sees names the same 96 bits in decimal, zero-padded to 29 digits. o200k splits digit runs into
 * threes, so every key costs exactly 10 tokens (24 hex digits cost 14 on average and up to 24, depending on the
 * letters); 29 digits is also the cheapest of hex, base32, base36, base62 and base64url measured (README, "Markers").
 * Fixed width keeps the cost of a marker the same for every key, so "does it pay" can be decided before hashing.
 */
export const MARKER_ID_DIGITS = 29;

const HEX = '[0-9a-f]{24}';
const DEC = '[0-9]{29}';
/** Markers as they appear in text: `<<tokenless:ID>>` (ID decimal, or hex as printed before) and the retrieval line. */
export const MARKER_SOURCE = `<<tokenless:(${HEX}|${DEC})>>|\\[tokenless retrieve (${DEC})\\]`;
const MARKER_PATTERN = new RegExp(MARKER_SOURCE, 'g');
const WHOLE_MARKER = new RegExp(`^(?:${MARKER_SOURCE})$`);
const BARE_HEX = new RegExp(`^${HEX}$`);
const BARE_DEC = new RegExp(`^${DEC}$`);
const KEY_LIMIT = 1n << 96n;

/** Bytes of a stashed original: strings are stored as their UTF-8 encoding. */
export function toBytes(content: string | Uint8Array): Uint8Array {
  return typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
}

/** The text of some bytes, or null when they are not valid UTF-8 (decoding would not give the same bytes back). */
export function exactUtf8(bytes: Uint8Array): string | null {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : null;
}

/** Full SHA-256 of the content, hex; the stash key is its first 24 digits. */
/**
 * Texts digested in this process: a hook call digests the same output for its stash key, its audit entry and its
 * stats row (seven digests of two texts for one pytest view). Strings are remembered by value, a few at a time;
 * bytes by identity.
 */
const digestedTexts = new Map<string, string>();
const digestedBytes = new WeakMap<Uint8Array, string>();
const REMEMBERED_TEXTS = 8;
/** Longer texts are not remembered: a long-lived process (the gateway, `serve`) would hold on to them. */
const REMEMBERED_TEXT_CHARS = 1 << 20;

export function contentDigest(content: string | Uint8Array): string {
  const known = typeof content === 'string' ? digestedTexts.get(content) : digestedBytes.get(content);
  if (known !== undefined) return known;
  const digest = sha256(toBytes(content));
  if (typeof content !== 'string') digestedBytes.set(content, digest);
  else if (content.length <= REMEMBERED_TEXT_CHARS) {
    if (digestedTexts.size >= REMEMBERED_TEXTS) digestedTexts.delete(digestedTexts.keys().next().value ?? '');
    digestedTexts.set(content, digest);
  }
  return digest;
}

export function stashKeyFor(content: string | Uint8Array): string {
  return contentDigest(content).slice(0, KEY_HEX_LENGTH);
}

/** The decimal id the model sees for a 24-hex key. */
export function markerId(key: string): string {
  return BigInt(`0x${key}`).toString(10).padStart(MARKER_ID_DIGITS, '0');
}

/** The 24-hex key of a decimal id, or null when the id is not below 2^96. */
function keyOfId(id: string): string | null {
  const value = BigInt(id);
  return value < KEY_LIMIT ? value.toString(16).padStart(KEY_HEX_LENGTH, '0') : null;
}

function keyOf(id: string): string | null {
  return id.length === KEY_HEX_LENGTH ? id : keyOfId(id);
}

/** The inline marker, for places inside a view (a JSON array's elided middle, a folded line). */
export function markerFor(key: string): string {
  return `<<tokenless:${markerId(key)}>>`;
}

/** The line that ends a lossy stream's view: it is itself the command that prints the original. */
export function retrievalLine(key: string): string {
  return `[tokenless retrieve ${markerId(key)}]\n`;
}

/**
 * Said once per session (Claude Code SessionStart context) instead of on every view: what the retrieval line means
 * and how to ask for part of an original.
 */
export const RETRIEVAL_GUIDE =
  '[syt] A line "[tokenless retrieve N]" ends output that tokenless shortened; run it to print the original exactly, ' +
  'or print part: --lines A-B, --grep REGEX [-C N], --search "words". ' +
  'To get a command\'s raw output in one step, prefix it: TOKENLESS_DISABLED=1 CMD. ' +
  'After a retrieval or a re-run, that command runs raw for the rest of the session.';

/** Every distinct stash key (24 hex) referenced by a marker in the text, in order of first appearance. */
export function markersIn(text: string): string[] {
  const keys = new Set<string>();
  for (const match of text.matchAll(MARKER_PATTERN)) {
    const key = keyOf(match[1] ?? match[2] ?? '');
    if (key !== null) keys.add(key);
  }
  return [...keys];
}

/** Accepts any marker form (`<<tokenless:ID>>`, the retrieval line, a bare ID in decimal or hex); returns the 24-hex
 * key, or null when it is none of them. */
export function parseMarker(input: string): string | null {
  const trimmed = input.trim();
  const wrapped = WHOLE_MARKER.exec(trimmed);
  if (wrapped !== null) return keyOf(wrapped[1] ?? wrapped[2] ?? '');
  if (BARE_HEX.test(trimmed)) return trimmed;
  return BARE_DEC.test(trimmed) ? keyOfId(trimmed) : null;
}
