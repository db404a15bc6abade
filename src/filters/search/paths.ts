/** Lossless search-path sharing (CONTRACTS.md "Search-path sharing"): `path:line:text` records become a header,
 * one `File=<JSON path>` line per run of records with the same path, and each record's `line:text` suffix verbatim
 * with its own line ending. Decoding: drop the header; `File=` sets the path; any other line is `path + ":" + line`. */
export const SEARCH_PATH_HEADER =
  '[tokenless: search results grouped by file; a File="path" line applies to the line:text lines after it]';

const RECORD = /^(.+?):(\d+):/;

/** Each line of `text` with its own ending (`\n`, `\r\n`, or none for an unterminated last line). */
function linesWithEndings(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Encodes a `path:line:text` listing, or null when any line does not fit or there are fewer than 3 records.
 * The caller still checks that the result is strictly shorter. */
export function encodeSearchPaths(text: string): string | null {
  const lines = linesWithEndings(text);
  if (lines.length < 3) return null;
  const out: string[] = [`${SEARCH_PATH_HEADER}\n`];
  let current: string | null = null;
  for (const line of lines) {
    const m = RECORD.exec(line);
    if (m === null) return null;
    const path = m[1] ?? '';
    if (path !== current) {
      out.push(`File=${JSON.stringify(path)}\n`);
      current = path;
    }
    out.push(line.slice(path.length + 1));
  }
  return out.join('');
}

/** Inverse of encodeSearchPaths. */
export function decodeSearchPaths(encoded: string): string {
  const lines = linesWithEndings(encoded).slice(1);
  let path = '';
  let out = '';
  for (const line of lines) {
    if (line.startsWith('File=')) {
      path = JSON.parse(line.slice(5).replace(/\r?\n$/, '')) as string;
    } else {
      out += `${path}:${line}`;
    }
  }
  return out;
}

/** TOKENLESS_SEARCH_PATH_SHARING_ENABLED: unset, `1`, `true`, `yes` (any case) mean on; anything else off. */
export function searchPathSharingEnabled(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env['TOKENLESS_SEARCH_PATH_SHARING_ENABLED'];
  return value === undefined || ['1', 'true', 'yes'].includes(value.toLowerCase());
}
