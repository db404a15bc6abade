import { joinLines, lossy, makeView, splitLines, stripAnsi } from '../text.ts';
import type { CommandOutput, StreamCandidate } from '../types.ts';
import { type Diagnostic, renderGrouped } from './diagnostics.ts';
import { tidyBlankLines } from '../test/frames.ts';
import { RUFF_ARROW, ruffFullDiagnostics } from './ruff.ts';

/** ESLint stylish output: `file` header, then `line:col severity message rule` rows -> grouped by file and rule. */
export function eslintView(name: string, output: CommandOutput): StreamCandidate | null {
  const lines = splitLines(stripAnsi(output.stdout));
  const diagnostics: Diagnostic[] = [];
  const other: string[] = [];
  let file: string | null = null;
  for (const line of lines) {
    const compact = ESLINT_COMPACT.exec(line);
    if (compact !== null) {
      const severity = (compact[4] ?? '').toLowerCase();
      diagnostics.push({ file: compact[1] ?? '', location: `${compact[2] ?? ''}:${compact[3] ?? ''}`, severity, code: compact[6] ?? '', message: compact[5] ?? '', more: [] });
      continue;
    }
    const row = /^\s+(\d+:\d+)\s+(error|warning)\s+(.*?)(?:\s{2,}(\S+))?$/.exec(line);
    if (row !== null && file !== null) {
      diagnostics.push({ file, location: row[1] ?? '', severity: row[2] ?? '', code: row[4] ?? '', message: row[3] ?? '', more: [] });
    } else if (/^(?:\/|[A-Za-z]:\\|\.{0,2}\/?[\w.@-]+\/)\S.*$/.test(line) && !line.startsWith('> ')) {
      file = line;
    } else if (line.trim() !== '' && !/^> \S/.test(line)) {
      other.push(line);
    }
  }
  if (diagnostics.length === 0) return null;
  return makeView(name, output, lossy(joinLines([...renderGrouped(diagnostics), ...other])), null);
}

const FLAKE8 = /^(.+?):(\d+):(\d+): ([A-Z]+\d+) (.*)$/;
/** pylint's default text format: `path:line:col: C0114: message (symbol)`. */
const PYLINT = /^(.+?\.pyi?):(\d+):(\d+): ([CRWEFI]\d{4}): (.*)$/;
/** ESLint's compact formatter: `path: line 12, col 5, Warning - message (rule)`. */
const ESLINT_COMPACT = /^(.+?): line (\d+), col (\d+), (Error|Warning) - (.*?)(?: \(([\w@/-]+)\))?$/;
const MYPY = /^(.+?):(\d+)(?::(\d+))?: (error|warning|note): (.*?)(?:\s+\[([\w-]+)\])?$/;
const GO = /^(.+?\.go):(\d+):(\d+): (.*)$/;
const RUFF = /^(.+?):(\d+):(\d+): ([A-Z]+\d+) (?:\[\*\] )?(.*)$/;
/**
 * markdownlint (markdownlint-cli, markdownlint-cli2): `path:line[:col] [error|warning] MD013/line-length message`;
 * older versions print no severity. The rule's number and names are its code.
 */
export const MARKDOWNLINT = /^(.+?):(\d+)(?::(\d+))? (?:(error|warning) )?(MD\d{3}(?:\/[\w-]+)+) (.*)$/;

/** One-line-per-diagnostic linters and compilers (flake8, ruff (concise, and its full format: ruff.ts), mypy, pylint-style, go vet/build, markdownlint): grouped by file
 * and code. Lines that are not diagnostics are kept in place before the groups. */
export function lineDiagnosticsView(name: string, output: CommandOutput): StreamCandidate | null {
  const render = (text: string): string[] | null => {
    const lines = splitLines(stripAnsi(text));
    const full = lines.some((line) => RUFF_ARROW.test(line)) ? ruffFullDiagnostics(lines) : null;
    if (full !== null) return [...full.other, ...renderGrouped(full.diagnostics)];
    const diagnostics: Diagnostic[] = [];
    const other: string[] = [];
    // Lines that continue the last diagnostic (pylint's duplicate-code listing, mypy's indented notes) stay with it.
    let continued: string[] | null = null;
    for (const line of lines) {
      if (continued !== null && (/^(?:\s+\S|==\S)/.test(line) || line.trim() === '')) {
        continued.push(line);
        continue;
      }
      while (continued !== null && continued.length > 0 && (continued[continued.length - 1] ?? '').trim() === '') continued.pop();
      continued = null;
      const f = FLAKE8.exec(line) ?? RUFF.exec(line) ?? PYLINT.exec(line);
      const m = f === null ? MYPY.exec(line) : null;
      const g = f === null && m === null ? GO.exec(line) : null;
      // A CRLF output's `\r` would end the message, which `.` does not match.
      const md = f === null && m === null && g === null ? MARKDOWNLINT.exec(line.replace(/\r$/, '')) : null;
      if (md !== null) {
        const location = md[3] === undefined ? (md[2] ?? '') : `${md[2] ?? ''}:${md[3]}`;
        diagnostics.push({ file: md[1] ?? '', location, severity: md[4] ?? 'error', code: md[5] ?? '', message: md[6] ?? '', more: [] });
      } else if (f !== null) {
        diagnostics.push({ file: f[1] ?? '', location: `${f[2] ?? ''}:${f[3] ?? ''}`, severity: 'error', code: f[4] ?? '', message: f[5] ?? '', more: [] });
      } else if (m !== null) {
        const location = m[3] === undefined ? m[2] ?? '' : `${m[2] ?? ''}:${m[3]}`;
        diagnostics.push({ file: m[1] ?? '', location, severity: m[4] ?? '', code: m[6] ?? '', message: m[5] ?? '', more: [] });
      } else if (g !== null) {
        diagnostics.push({ file: g[1] ?? '', location: `${g[2] ?? ''}:${g[3] ?? ''}`, severity: 'error', code: '', message: g[4] ?? '', more: [] });
      } else if (!/^\*{5,} Module \S+$/.test(line)) {
        // pylint's `************* Module x` banners repeat the file each group already names.
        other.push(line);
        continue;
      }
      const last = diagnostics[diagnostics.length - 1];
      if (last !== undefined) {
        continued = [];
        diagnostics[diagnostics.length - 1] = { ...last, more: continued };
      }
    }
    return diagnostics.length === 0 ? null : [...tidyBlankLines(other), ...renderGrouped(diagnostics)];
  };
  const out = render(output.stdout);
  const err = render(output.stderr);
  return makeView(name, output, out === null ? null : lossy(joinLines(out)), err === null ? null : lossy(joinLines(err)));
}
