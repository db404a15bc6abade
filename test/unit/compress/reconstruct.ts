import { decode } from '@toon-format/toon';
import type { Candidate } from '../../../src/reduce/candidate.ts';
import { parseMarker } from '../../../src/store/marker.ts';

/** Test helper: puts every elided original of a lossy candidate back, as a reader with `tokenless retrieve` could. */

// The id the model sees (29 decimal digits); parseMarker turns it into the stash key.
const MARKER = '<<tokenless:([0-9]{29})>>';
const STRING_PLACEHOLDER = new RegExp(`^[\\s\\S]*… \\[\\+\\d+ chars ${MARKER}\\]$`);
const ITEMS_PLACEHOLDER = new RegExp(`^… \\d+ more items ${MARKER}$`);
const SUBTREE_PLACEHOLDER = new RegExp(`^\\{…\\} ${MARKER}$`);
const LINES_PLACEHOLDER = new RegExp(`^\\[… \\d+ more lines ${MARKER}\\]$`);

function stashText(candidate: Candidate, id: string): string {
  const key = parseMarker(id) ?? id;
  const entry = candidate.stash.find((e) => e.key === key);
  if (entry === undefined) throw new Error(`marker ${key} has no stash entry`);
  return Buffer.from(entry.bytes).toString('utf8');
}

/** Every marker in the output names a stash entry and every stash entry is named: nothing dangles. */
export function markersMatchStash(candidate: Candidate): boolean {
  const named = new Set([...candidate.output.matchAll(new RegExp(MARKER, 'g'))].map((m) => parseMarker(m[1] ?? '')));
  return candidate.stash.every((e) => named.has(e.key)) && [...named].every((k) => candidate.stash.some((e) => e.key === k));
}

function restoreValue(value: unknown, candidate: Candidate): unknown {
  if (typeof value === 'string') {
    const string = STRING_PLACEHOLDER.exec(value);
    if (string?.[1] !== undefined) return stashText(candidate, string[1]);
    const subtree = SUBTREE_PLACEHOLDER.exec(value);
    if (subtree?.[1] !== undefined) return JSON.parse(stashText(candidate, subtree[1]));
    return value;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      const items = typeof item === 'string' ? ITEMS_PLACEHOLDER.exec(item) : null;
      if (items?.[1] !== undefined) out.push(...(JSON.parse(stashText(candidate, items[1])) as unknown[]));
      else out.push(restoreValue(item, candidate));
    }
    return out;
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      Object.defineProperty(out, key, { value: restoreValue(child, candidate), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

/** The original JSON value (one document) behind a `json_truncate` candidate. */
export function reconstructJsonDocument(candidate: Candidate): unknown {
  const reduced: unknown = candidate.operations.includes('toon') ? decode(candidate.output) : JSON.parse(candidate.output);
  return restoreValue(reduced, candidate);
}

/** The original records (JSON Lines / value stream) behind a `json_truncate` candidate, as parsed values. */
export function reconstructJsonLines(candidate: Candidate): unknown[] {
  const values: unknown[] = [];
  for (const line of candidate.output.split('\n')) {
    if (line === '') continue;
    const elided = LINES_PLACEHOLDER.exec(line);
    if (elided?.[1] !== undefined) {
      for (const original of stashText(candidate, elided[1]).split('\n')) values.push(JSON.parse(original));
    } else {
      values.push(restoreValue(JSON.parse(line), candidate));
    }
  }
  return values;
}

/** The original text behind a candidate that stashed its whole input (log folding, HTML text). */
export function wholeOriginal(candidate: Candidate): string {
  const keys = [...candidate.output.matchAll(new RegExp(MARKER, 'g'))].map((m) => m[1] ?? '');
  if (keys.length !== 1 || keys[0] === undefined) throw new Error('expected exactly one marker');
  return stashText(candidate, keys[0]);
}
