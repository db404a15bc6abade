import { lossless } from '../reduce/candidate.ts';
import { estimateTokens } from '../tokens/estimate.ts';
import type { Compressor } from './types.ts';

export { searchPathSharingEnabled } from '../config/flags.ts';

/**
 * Search-path sharing (CONTRACTS.md): a `path:line:text` listing is rewritten as a fixed header line, then one
 * `File=<JSON path>` line per run of consecutive records with the same path, each followed by the records'
 * `line:text` suffixes verbatim (original line endings kept). Lossless and exactly reversible by `decodeSearchPaths`.
 */

/** The fixed first line of an encoded listing. It starts with neither a digit nor `File=`, so it cannot be misread. */
export const SEARCH_PATH_HEADER = '[search results: each File="path" line applies to the line:text rows below it]';

const FILE_PREFIX = 'File=';
const MIN_RECORDS = 3;

/** Where a record's path ends (index of its first colon), or -1 when the line is not `path:digits:text`. */
function recordPathEnd(line: string): number {
  const colon = line.indexOf(':');
  if (colon <= 0) return -1;
  let i = colon + 1;
  while (i < line.length) {
    const code = line.charCodeAt(i);
    if (code < 48 || code > 57) break;
    i++;
  }
  return i > colon + 1 && line[i] === ':' ? colon : -1;
}

/** The path of a `path:digits:text` record, or null when the line is not one. */
export function searchRecordPath(line: string): string | null {
  const end = recordPathEnd(line);
  return end < 0 ? null : line.slice(0, end);
}

/** Splits on `\n`, keeping each line's ending (so a CR of CRLF stays with its line); no empty tail element. */
export function splitKeepingEndings(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl + 1;
    lines.push(text.slice(start, end));
    start = end;
  }
  return lines;
}

/**
 * True when `path` looks like the `path-12-text` context form of another record's path: grep and rg print context
 * lines that way, and one whose text holds `:digits:` would otherwise parse as a record.
 */
function isContextOf(path: string, paths: ReadonlySet<string>): boolean {
  if (!path.includes('-')) return false;
  for (const match of path.matchAll(/-\d+-/g)) {
    if (paths.has(path.slice(0, match.index))) return true;
  }
  return false;
}

/** The encoded listing, or null when any line is not a `path:digits:text` record or there are fewer than 3. */
export function encodeSearchPaths(text: string): string | null {
  return encodeWithSavings(text)?.encoded ?? null;
}

interface Encoding {
  readonly encoded: string;
  /** estimateTokens(original) - estimateTokens(encoded), computed from the paths alone (see `tokenSavings`). */
  readonly tokenSavings: number;
}

function encodeWithSavings(text: string): Encoding | null {
  const lines = splitKeepingEndings(text);
  if (lines.length < MIN_RECORDS) return null;
  const out: string[] = [SEARCH_PATH_HEADER, '\n'];
  const paths = new Set<string>();
  const runs: { path: string; records: number }[] = [];
  let current: { path: string; records: number } | undefined;
  for (const line of lines) {
    const end = recordPathEnd(line);
    if (end < 0) return null;
    const path = line.slice(0, end);
    if (path !== current?.path) {
      out.push(FILE_PREFIX, JSON.stringify(path), '\n');
      current = { path, records: 0 };
      runs.push(current);
      paths.add(path);
    }
    current.records++;
    out.push(line.slice(end + 1));
  }
  for (const run of runs) if (isContextOf(run.path, paths)) return null;
  const encoded = out.join('');
  return { encoded, tokenSavings: tokenSavings(runs, encoded, text) };
}

/**
 * The estimated-token difference without re-tokenising the whole listing. Every record's `line:text` suffix
 * starts with a digit and follows a `:` or a line ending in both texts, and `estimateTokens` never lets a word
 * piece cross a `:`, a digit boundary or a line ending; so the suffixes cost the same in both texts, and the
 * difference is each record's `path:` against the header and `File=` lines. A path that begins with whitespace
 * would merge with the previous line ending, so then both texts are counted in full.
 */
function tokenSavings(runs: readonly { path: string; records: number }[], encoded: string, original: string): number {
  if (runs.some((run) => /^\s/u.test(run.path))) return estimateTokens(original) - estimateTokens(encoded);
  let saved = -estimateTokens(`${SEARCH_PATH_HEADER}\n`);
  for (const run of runs) {
    saved += (estimateTokens(run.path) + 1) * run.records;
    saved -= estimateTokens(`${FILE_PREFIX}${JSON.stringify(run.path)}\n`);
  }
  return saved;
}

/** Inverse of `encodeSearchPaths`: drop the header; `File=` sets the path; every other line is `path:` + line. */
export function decodeSearchPaths(encoded: string): string {
  const lines = splitKeepingEndings(encoded);
  const out: string[] = [];
  let path = '';
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith(FILE_PREFIX)) {
      path = JSON.parse(line.slice(FILE_PREFIX.length)) as string;
    } else {
      out.push(path, ':', line);
    }
  }
  return out.join('');
}

/** Exposed for the test that keeps `tokenSavings` equal to a full re-count. */
export function searchPathTokenSavings(text: string): number | null {
  return encodeWithSavings(text)?.tokenSavings ?? null;
}

/** TOKENLESS_SEARCH_PATH_SHARING_ENABLED: unset, `1`, `true`, `yes` (any case) mean on; anything else off. */
/** Operation `search_path_sharing`, lossless; only when it cuts both bytes and estimated tokens. */
export const searchPathSharing: Compressor = (input, context) => {
  if (!context.searchPathSharing) return null;
  const encoding = encodeWithSavings(input.content);
  if (encoding === null || encoding.tokenSavings <= 0) return null;
  if (Buffer.byteLength(encoding.encoded) >= Buffer.byteLength(input.content)) return null;
  return lossless(encoding.encoded, ['search_path_sharing']);
};
