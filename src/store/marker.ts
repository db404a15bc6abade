import { builtin } from './builtin.ts';


/** Length in hex digits of a stash key (96 bits of SHA-256). */
export const KEY_HEX_LENGTH = 24;

const MARKER_PATTERN = /<<tokenless:([0-9a-f]{24})>>/g;
const BARE_KEY = /^[0-9a-f]{24}$/;

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
export function contentDigest(content: string | Uint8Array): string {
  // Loaded on first use: a pre_tool decision never hashes.
  return builtin('node:crypto').createHash('sha256').update(toBytes(content)).digest('hex');
}

export function stashKeyFor(content: string | Uint8Array): string {
  return contentDigest(content).slice(0, KEY_HEX_LENGTH);
}

export function markerFor(key: string): string {
  return `<<tokenless:${key}>>`;
}

/** Every distinct stash key referenced by a marker in the text, in order of first appearance. */
export function markersIn(text: string): string[] {
  const keys = new Set<string>();
  for (const match of text.matchAll(MARKER_PATTERN)) {
    if (match[1] !== undefined) keys.add(match[1]);
  }
  return [...keys];
}

/** Accepts `<<tokenless:KEY>>` or a bare KEY; returns the key or null when it is neither. */
export function parseMarker(input: string): string | null {
  const trimmed = input.trim();
  const wrapped = /^<<tokenless:([0-9a-f]{24})>>$/.exec(trimmed);
  if (wrapped?.[1] !== undefined) return wrapped[1];
  return BARE_KEY.test(trimmed) ? trimmed : null;
}
