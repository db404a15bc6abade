import { joinLines, lossy, makeView, splitLines, stripAnsi } from '../text.ts';
import type { CommandOutput, StreamCandidate } from '../types.ts';
import { type Diagnostic, renderGrouped } from './diagnostics.ts';
import { tidyBlankLines } from '../test/frames.ts';

/** shellcheck's default (tty) format: `In FILE line N:`, the source line, then one marker per diagnostic. */
export const SHELLCHECK_HEADER = /^In (\S.*) line (\d+):$/;
/** `^-- SC2086 (info): message` under one column, `^------^ SC2034 (warning): …` under a range. */
export const SHELLCHECK_MARKER = /^( *)\^(?:-*\^|--) (SC\d{4}) \((error|warning|info|style)\): (.*)$/;
/** `-f gcc`: `file:line:col: warning|note|error: message [SC2086]`. */
export const SHELLCHECK_GCC = /^([^\s:][^:]*):(\d+):(\d+): (error|warning|note|style): (.*) \[(SC\d{4})\]$/;
/** The closing list of wiki links repeats each code with its message cut short. */
const WIKI_HEADER = /^For more information:$/;
const WIKI_LINE = /^ {2}https:\/\/www\.shellcheck\.net\/wiki\/SC\d{4} -- /;

/** The 1-based column of the character under `marker` columns of padding: the tty format expands tabs to stops of 8,
 * the gcc format (and an editor) counts a tab as one column. */
function columnAt(source: string, marker: number): number {
  let visual = 0;
  for (let i = 0; i < source.length; i++) {
    if (visual >= marker) return i + 1;
    visual = source[i] === '\t' ? (Math.floor(visual / 8) + 1) * 8 : visual + 1;
  }
  return source.length + 1;
}

/** One stream of the tty or gcc format as grouped diagnostics, or null when it has none. The source line and the markers
 * under it are dropped (the location names them; the stash keeps them); a `Did you mean:` fix stays with the
 * diagnostic it follows, and the wiki links are dropped, since each repeats a code and message shown above. */
function ttyLines(text: string): string[] | null {
  const diagnostics: Diagnostic[] = [];
  const other: string[] = [];
  let file: string | null = null;
  let line = '';
  let source: string | null = null;
  let fix: string[] | null = null;
  let inWiki = false;
  const flushFix = (): void => {
    const last = diagnostics[diagnostics.length - 1];
    if (fix === null || last === undefined) return;
    while (fix.length > 0 && (fix[fix.length - 1] ?? '').trim() === '') fix.pop();
    diagnostics[diagnostics.length - 1] = { ...last, more: fix };
    fix = null;
  };
  for (const raw of splitLines(stripAnsi(text))) {
    const row = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const header = SHELLCHECK_HEADER.exec(row);
    if (header !== null) {
      flushFix();
      inWiki = false;
      file = header[1] ?? '';
      line = header[2] ?? '';
      source = null;
      continue;
    }
    const gcc = SHELLCHECK_GCC.exec(row);
    if (gcc !== null) {
      flushFix();
      diagnostics.push({ file: gcc[1] ?? '', location: `${gcc[2] ?? ''}:${gcc[3] ?? ''}`, severity: gcc[4] ?? '', code: gcc[6] ?? '', message: gcc[5] ?? '', more: [] });
      continue;
    }
    const marker = file === null ? null : SHELLCHECK_MARKER.exec(row);
    if (marker !== null && file !== null && fix === null) {
      const column = columnAt(source ?? '', (marker[1] ?? '').length);
      diagnostics.push({ file, location: `${line}:${column}`, severity: marker[3] ?? '', code: marker[2] ?? '', message: marker[4] ?? '', more: [] });
      continue;
    }
    if (file !== null && source === null && fix === null) {
      source = row;
      continue;
    }
    if (row === 'Did you mean: ' || row === 'Did you mean:') {
      flushFix();
      fix = [row];
      continue;
    }
    if (fix !== null) {
      // The fixed line(s) end at the first blank line.
      if (row.trim() === '' && fix.length > 1) flushFix();
      else fix.push(row);
      continue;
    }
    if (WIKI_HEADER.test(row)) inWiki = true;
    if (inWiki && (WIKI_HEADER.test(row) || WIKI_LINE.test(row))) continue;
    inWiki = false;
    // Outside a block (a script's own lines before or after shellcheck ran) lines are kept as they are.
    if (file === null || row.trim() !== '') other.push(row);
  }
  flushFix();
  if (diagnostics.length === 0) return null;
  return [...tidyBlankLines(other), ...renderGrouped(diagnostics)];
}

/** shellcheck in its tty or `-f gcc` format, grouped by file and code like the other linters. Lines are read
 * without a CR before the newline (a Windows shell's output); the stash keeps the bytes as they were. */
export function shellcheckView(name: string, output: CommandOutput): StreamCandidate | null {
  const out = ttyLines(output.stdout);
  const err = ttyLines(output.stderr);
  return makeView(name, output, out === null ? null : lossy(joinLines(out)), err === null ? null : lossy(joinLines(err)));
}
