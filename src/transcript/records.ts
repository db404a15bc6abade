/**
 * The two forms a Claude Code transcript is kept in, told apart by content (never by file name):
 * - JSONL, the client's own `~/.claude/projects/<project>/<session>.jsonl`: one record per line;
 * - a JSON array of the same records (`chat.json`, as Stop hooks that dump the session write it, usually indented).
 * Every reader takes the records as JSONL lines from `recordLines`, so each parses one form only.
 */

export type TranscriptForm = 'jsonl' | 'json-array';

/** Only this much of the head is looked at to decide the form: a multi-megabyte file is judged by its first bytes. */
const FORM_PROBE_CHARS = 4096;

/**
 * `json-array` when the first non-blank character is `[` and the next one opens a record (`{`) or closes the array;
 * JSONL records are objects, so a line starting with `[` is not one of them.
 */
export function transcriptForm(text: string): TranscriptForm {
  const end = Math.min(text.length, FORM_PROBE_CHARS);
  let i = skipBlank(text, 0, end);
  if (i >= end || text[i] !== '[') return 'jsonl';
  i = skipBlank(text, i + 1, end);
  return i < end && (text[i] === '{' || text[i] === ']') ? 'json-array' : 'jsonl';
}

function skipBlank(text: string, from: number, end: number): number {
  let i = from;
  // U+FEFF: a byte-order mark some editors and dump scripts write.
  while (i < end && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t' || text[i] === '\uFEFF')) i++;
  return i;
}

// Several readers (usage, replay calls, the cache simulator's lines) read one file's text in turn: the array is
// parsed once for all of them.
let lastText: string | null = null;
let lastLines: readonly string[] = [];

/**
 * The transcript's records as JSONL lines (blank lines included for JSONL, as the file has them). An array entry
 * that is not an object becomes a blank line (no record); an array that does not parse (a cut dump) is one line
 * no reader can parse, so it counts as one unreadable line rather than as records half-read.
 */
export function recordLines(text: string): readonly string[] {
  if (transcriptForm(text) === 'jsonl') return text.split('\n');
  if (text === lastText) return lastLines;
  let lines: string[];
  try {
    const parsed: unknown = JSON.parse(text);
    lines = Array.isArray(parsed) ? parsed.map((record: unknown) => (typeof record === 'object' && record !== null && !Array.isArray(record) ? JSON.stringify(record) : '')) : [];
  } catch {
    lines = [text];
  }
  lastText = text;
  lastLines = lines;
  return lines;
}

/** A file name a transcript may have in either form: `.jsonl`, or a `chat.json` dump (`…__chat.json`, `x.chat.json`). */
export function isTranscriptName(name: string): boolean {
  return name.endsWith('.jsonl') || name === 'chat.json' || name.endsWith('.chat.json') || name.endsWith('_chat.json');
}
