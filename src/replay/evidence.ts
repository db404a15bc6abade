/**
 * The replay's estimate of need (issue 23, item 6). A view that hid something the agent used shows in what the agent
 * wrote next: a path, an identifier, a hash or a number that is in the original output, not in the view, and that
 * the agent could not have got anywhere else (not earlier in the session, not in a tool result between). Each such
 * view is priced as one retrieval turn in the net figure. Blind where the agent reasons in hidden thinking: a floor.
 * A view that only reformats (search results under a shared path header, compacted diff headers) keeps the word:
 * words are compared on the decoded view.
 */
import { expandDiffHeaders } from '../compress/diff.ts';
import { decodeSearchPaths, SEARCH_PATH_HEADER } from '../compress/search-paths.ts';

/** One step of a session, in order: what the agent wrote, what a person wrote, what a tool returned. */
export interface TimelineEntry {
  readonly kind: 'agent' | 'user' | 'result';
  readonly text: string;
  /** For a result: the call it answers. */
  readonly toolUseId?: string;
}

/** How many of the agent's messages after a result are read for evidence (the measure: the next 40). */
export const EVIDENCE_HORIZON = 40;

const TOKEN = /[A-Za-z0-9_./:@#-]+/g;
const HASH = /^[0-9a-f]{7,64}$/;
const NUMBER = /^\d[\d.,:]*\d$/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Whether a token says something specific enough that writing it shows where it was read. */
export function isDistinctive(token: string): boolean {
  if (token.length < 4 || token.length > 200) return false;
  if (HASH.test(token) && /\d/.test(token) && /[a-f]/.test(token)) return true;
  // Numbers of 4+ digits, versions and line:column pairs; small counts (1, 42) say nothing.
  if (NUMBER.test(token)) return token.replace(/\D/g, '').length >= 4;
  if (token.includes('/') && /[A-Za-z]/.test(token)) return token.replace(/[^A-Za-z0-9]/g, '').length >= 4;
  if (/^[\w-]+\.[A-Za-z][A-Za-z0-9]{0,7}$/.test(token) && /[A-Za-z]/.test(token.split('.')[0] ?? '')) return true;
  // camelCase, PascalCase with an inner capital, snake_case, SCREAMING_CASE: identifiers, not words.
  if (IDENTIFIER.test(token) && token.length >= 6) return /[a-z][A-Z]/.test(token) || /[A-Za-z0-9]_[A-Za-z0-9]/.test(token);
  return false;
}

/** The distinctive words of a text, trailing punctuation trimmed. */
export function distinctiveWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const match of text.matchAll(TOKEN)) {
    const token = match[0].replace(/^[.:/#@-]+|[.:,#@-]+$/g, '');
    if (isDistinctive(token)) words.add(token);
    // `path:line[:col]` names the path too: an agent that read a search hit writes the path alone.
    const located = /^(.+?)(:\d+)+$/.exec(token);
    if (located?.[1] !== undefined && isDistinctive(located[1])) words.add(located[1]);
  }
  return words;
}

/** The view as the agent can read it: shared path headers and compacted diff headers put back. */
export function decodedView(view: string): string {
  let decoded = view;
  if (view.includes(SEARCH_PATH_HEADER)) {
    try {
      decoded += `\n${decodeSearchPaths(view)}`;
    } catch {
      // Undecodable: the view as shown.
    }
  }
  try {
    const expanded = expandDiffHeaders(view);
    if (expanded !== view) decoded += `\n${expanded}`;
  } catch {
    // As above.
  }
  return decoded;
}

/** Where each distinctive word occurs in the timeline (entry indices, ascending). */
export class WordIndex {
  readonly #at = new Map<string, number[]>();

  constructor(timeline: readonly TimelineEntry[]) {
    timeline.forEach((entry, i) => {
      for (const word of distinctiveWords(entry.text)) {
        let list = this.#at.get(word);
        if (list === undefined) this.#at.set(word, (list = []));
        list.push(i);
      }
    });
  }

  occurrences(word: string): readonly number[] {
    return this.#at.get(word) ?? [];
  }
}

/**
 * The words that show the agent used what the view at `index` (a result in the timeline) hid: in the original, not
 * in the decoded view, nowhere in the session before it, and written by the agent in one of its next
 * EVIDENCE_HORIZON messages before any other result or person's message showed it.
 */
export function hiddenWordsUsed(timeline: readonly TimelineEntry[], words: WordIndex, index: number, original: string, view: string): string[] {
  const shown = distinctiveWords(decodedView(view));
  const used: string[] = [];
  const horizon = horizonEnd(timeline, index);
  for (const word of distinctiveWords(original)) {
    if (shown.has(word)) continue;
    // Substrings count as shown (a path the view kept with a longer suffix, a number inside a kept line).
    if (view.includes(word)) continue;
    const at = words.occurrences(word);
    if (at.some((i) => i < index)) continue;
    const next = at.find((i) => i > index);
    if (next === undefined || next > horizon || timeline[next]?.kind !== 'agent') continue;
    used.push(word);
  }
  return used.sort();
}

function horizonEnd(timeline: readonly TimelineEntry[], index: number): number {
  let seen = 0;
  for (let i = index + 1; i < timeline.length; i += 1) {
    if (timeline[i]?.kind === 'agent') seen += 1;
    if (seen >= EVIDENCE_HORIZON) return i;
  }
  return timeline.length - 1;
}
