import type { ContentType } from './types.ts';

/** Bytes of the head the line-based checks look at; big outputs are judged by their beginning. */
const SAMPLE_CHARS = 64 * 1024;
/** Lines of the sample the ratio checks look at. */
const SAMPLE_LINES = 400;
/** Whole-document JSON.parse is linear and fast; above this size only the head's shape is checked. */
const FULL_JSON_PARSE_LIMIT = 8 * 1024 * 1024;

const SEARCH_RECORD = /^[^:\n]+:\d+:/;
// `2024-01-02T13:45:…` and `git blame`'s `(Author 2015-06-18 23:00:20` also split as `x:digits:`; a real path
// practically never ends in ` 23` or `T13`.
const TIME_PREFIX = /^[^:\n]*[T ]\d{1,2}:\d+:/;
const STACK_FRAME =
  /^\s+at .+(?:\(.*:\d+(?::\d+)?\)|:\d+:\d+)\s*$|^\s*File ".+", line \d+|^Traceback \(most recent call last\):|^\s+at [\w$.<>]+\([\w.]+\.java:\d+\)|^goroutine \d+ \[|^\s*\d+: 0x[0-9a-f]+ - |panicked at|^\s*#\d+\s+0x[0-9a-f]+ in /;
const LOG_LINE =
  /^\[?\s*\d{1,3}%\]|^\s*\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|^\[?\d{2}:\d{2}:\d{2}|\b(?:INFO|DEBUG|WARN|WARNING|ERROR|TRACE|FATAL)\b|^npm (?:WARN|ERR!|notice)|^(?:warning|error|note)(?:\[\w+\])?: |^\s*(?:Compiling|Building|Linking|Downloading|Installing|Collecting|Finished|Running) |: (?:warning|error): |\(\d+,\d+\): (?:error|warning)|\berror TS\d+|\x1b\[/;
const SOURCE_LINE =
  /^\s*(?:import |export |from \S+ import|#include|package |func |def |class |fn |pub |use |const |let |var |return\b|if \(|for \(|while \(|\}|\{$|\/\/|\/\*|# |@\w+)|[;{]\s*$/;

/** Classifies tool output from its content alone; linear in the sample size. */
export function classifyContent(text: string): ContentType {
  const trimmedStart = text.trimStart();
  if (trimmedStart === '') return 'plain_text';
  const head = text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text;
  if (looksLikeJson(text, trimmedStart)) return 'json';
  const lines = sampleLines(head, text.length > SAMPLE_CHARS);
  const nonBlank = lines.filter((l) => l.trim() !== '');
  if (nonBlank.length === 0) return 'plain_text';
  if (isDiff(lines)) return 'diff';
  if (isHtml(trimmedStart)) return 'html';
  const share = (pattern: RegExp): number => nonBlank.filter((l) => pattern.test(l)).length / nonBlank.length;
  if (nonBlank.length >= 3 && share(SEARCH_RECORD) >= 0.8 && share(TIME_PREFIX) < 0.2) return 'search_results';
  const frames = nonBlank.filter((l) => STACK_FRAME.test(l)).length;
  if (frames >= 2 && frames / nonBlank.length >= 0.3) return 'stack_trace';
  if (share(LOG_LINE) >= 0.4 || /\r[^\n]/.test(head)) return 'build_log';
  if (isTabular(nonBlank)) return 'tabular';
  if (share(SOURCE_LINE) >= 0.35) return 'source_code';
  return 'plain_text';
}

/** The sample's lines; when the text was cut, the last (partial) line is dropped. */
function sampleLines(head: string, cut: boolean): string[] {
  const lines = head.split('\n', SAMPLE_LINES + 1).map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (cut || lines.length > SAMPLE_LINES) lines.pop();
  return lines;
}

function looksLikeJson(text: string, trimmedStart: string): boolean {
  const first = trimmedStart[0];
  if (first !== '{' && first !== '[') return false;
  if (text.length <= FULL_JSON_PARSE_LIMIT) {
    try {
      JSON.parse(text);
      return true;
    } catch {
      // Not one document: maybe a stream of values.
    }
  }
  // A stream of values (JSON Lines, jq output): the head must hold at least two complete values.
  const head = text.slice(0, SAMPLE_CHARS);
  let depth = 0;
  let complete = 0;
  let inString = false;
  for (let i = 0; i < head.length; i++) {
    const ch = head[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth < 0) return false;
      if (depth === 0) complete++;
    } else if (depth === 0 && !/\s/.test(ch ?? '')) return false;
  }
  return complete >= 2;
}

function isDiff(lines: readonly string[]): boolean {
  let gitHeaders = 0;
  let hunks = 0;
  let fileHeaders = 0;
  for (const line of lines) {
    if (line.startsWith('diff --git ') || line.startsWith('diff -')) gitHeaders++;
    else if (line.startsWith('@@ ') && / @@/.test(line.slice(3))) hunks++;
    else if (line.startsWith('+++ ') || line.startsWith('--- ')) fileHeaders++;
  }
  return hunks > 0 && (gitHeaders > 0 || fileHeaders >= 2);
}

function isHtml(trimmedStart: string): boolean {
  const head = trimmedStart.slice(0, 1024).toLowerCase();
  if (head.startsWith('<!doctype html') || head.startsWith('<html')) return true;
  if (!head.startsWith('<')) return false;
  const sample = trimmedStart.slice(0, SAMPLE_CHARS);
  const tags = sample.match(/<\/?(?:div|p|a|span|body|head|table|tr|td|ul|li|h[1-6]|br|img|meta|link|script)\b/gi);
  return tags !== null && tags.length >= 5;
}

/** CSV/TSV with a constant field count, or space-aligned columns. */
function isTabular(lines: readonly string[]): boolean {
  if (lines.length < 3) return false;
  for (const delimiter of [',', '\t']) {
    const counts = lines.map((l) => fieldCount(l, delimiter));
    const first = counts[0] ?? 0;
    if (first >= 2 && counts.filter((c) => c === first).length / counts.length >= 0.9) return true;
  }
  // Space-aligned: most lines have 2+ gaps of 2+ spaces between words.
  const gapped = lines.filter((l) => (l.trim().match(/\S {2,}(?=\S)/g)?.length ?? 0) >= 2).length;
  return gapped / lines.length >= 0.8;
}

/** Fields of a line split on `delimiter` outside double quotes. */
export function fieldCount(line: string, delimiter: string): number {
  let count = 1;
  let inQuotes = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '"') inQuotes = !inQuotes;
    else if (ch === delimiter && !inQuotes) count++;
  }
  return count;
}
