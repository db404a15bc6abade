import { stripAnsi } from '../../src/filters/text.ts';

/** One place a tool pointed at in its raw output: a file and a line. */
export interface Location {
  readonly file: string;
  readonly line: string;
}

const PATH = String.raw`((?:[\w.@~+-]+/)*[\w.@+-]+\.[A-Za-z][A-Za-z0-9]{0,4})`;
// `path:12` / `path:12:5` (gcc, rustc, go, pytest, pylint, flake8), `path(12,5)` (tsc), `path: line 12, col 5` (eslint
// compact), `File "path", line 12` (Python tracebacks).
const LOCATION_FORMS: readonly RegExp[] = [
  new RegExp(String.raw`(?:^|[\s(\[>'"])\.?/?${PATH}:(\d+)(?::\d+)?(?=[:\s,)\]]|$)`, 'g'),
  new RegExp(String.raw`(?:^|\s)${PATH}\((\d+),\d+\)`, 'g'),
  new RegExp(String.raw`^/?${PATH}: line (\d+), col \d+`, 'g'),
  new RegExp(String.raw`File "${PATH}", line (\d+)`, 'g'),
];

/** Locations a failing run's raw output names (deduplicated), independent of any filter. ESLint stylish rows
 * (`  12:5  error …` under a file header) count with that file. Frames inside the Rust and Python standard libraries,
 * node_modules and site-packages are not the project's locations and are not counted. */
export function rawLocations(stdout: string, stderr: string): Location[] {
  const seen = new Map<string, Location>();
  for (const text of [stdout, stderr]) {
    let header: string | null = null;
    for (const raw of stripAnsi(text).split('\n')) {
      const line = raw.replace(/\r$/, '');
      if (/^(?:\/|[\w.@-]+\/)\S*\.[A-Za-z]{1,4}$/.test(line)) header = line;
      const row = /^\s+(\d+):\d+\s+(?:error|warning)\s/.exec(line);
      if (row !== null && header !== null) seen.set(`${header}:${row[1] ?? ''}`, { file: header, line: row[1] ?? '' });
      // Library frames, and Unity's per-test `file:line:name:PASS` lines (a pass names no place to fix).
      if (/\/rustc\/|site-packages|node_modules|\/usr\/lib\/python|\.pyenv\/|:PASS$/.test(line)) continue;
      for (const form of LOCATION_FORMS) {
        for (const m of line.matchAll(form)) {
          const file = m[1] ?? '';
          if (/^\d/.test(file) || /^(?:e\.g|i\.e)\./.test(file)) continue;
          seen.set(`${file}:${m[2] ?? ''}`, { file, line: m[2] ?? '' });
        }
      }
    }
  }
  return [...seen.values()];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether the view still shows a location: verbatim (`file:12`, `file(12,`, `file", line 12`), or the file as a group
 * header with the line number among the rows under it (the grouped renderings of tsc, eslint, pylint, flake8). */
export function shows(view: string, location: Location): boolean {
  const { file, line } = location;
  const direct = new RegExp(`${escape(file)}(?::${line}(?!\\d)|\\(${line},|", line ${line}(?!\\d)|: line ${line},)`);
  if (direct.test(view)) return true;
  const lines = view.split('\n');
  const rowHasLine = new RegExp(`(?:^|[\\s,])${line}(?::\\d+)?(?=[\\s,:×]|$)`);
  for (let i = 0; i < lines.length; i++) {
    if (!(lines[i] ?? '').includes(file)) continue;
    for (let j = i + 1; j < lines.length && j < i + 400; j++) {
      const row = lines[j] ?? '';
      if (!/^\s/.test(row) && /\S+\.[A-Za-z]{1,4}(?: \(\d+\))?:$/.test(row)) break;
      if (rowHasLine.test(row)) return true;
    }
  }
  return false;
}

/** Names of failing tests the raw output reports, per runner convention (independent of the filters). */
export function failingTests(stdout: string, stderr: string): string[] {
  const text = stripAnsi(`${stdout}\n${stderr}`);
  const names = new Set<string>();
  const patterns = [
    /^FAILED (\S+)/gm, // pytest short summary
    /^_{3,} (\S.*?) _{3,}$/gm, // pytest section headers
    /^(?:FAIL|ERROR): (\S+)/gm, // unittest
    /^test (\S+) \.\.\. FAILED$/gm, // cargo test
    /^---- (\S+) stdout ----$/gm, // cargo test
    /^\s*--- FAIL: (\S+)/gm, // go test
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) names.add(m[1] ?? '');
  return [...names].filter((n) => n !== '');
}

/** Error messages: lines a tool marks as an error or a failed assertion (the text after the marker). */
export function errorMessages(stdout: string, stderr: string): string[] {
  const text = stripAnsi(`${stdout}\n${stderr}`);
  const found = new Set<string>();
  const patterns = [
    /^E\s+(\S.*)$/gm, // pytest
    /^(\w+(?:Error|Exception): .*)$/gm, // Python
    /^(error(?:\[E\d+\])?: .*)$/gm, // rustc
    /: (?:fatal )?error: (.*)$/gm, // gcc/clang/go
    /error TS\d+: (.*)$/gm, // tsc
    /panicked at .*\n(.*)$/gm, // rust panics
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) found.add((m[1] ?? '').trim());
  return [...found].filter((m) => m !== '');
}

const QUOTED = /'[^'\n]*'|‘[^’\n]*’|"[^"\n]*"|`[^`\n]*`/g;

/** Whether a message is still readable in the view: verbatim, or as a shared template (`{} is not defined`, its
 * quoted names listed with their places) whose every quoted name is shown. Whitespace runs count as one space. */
export function showsMessage(view: string, message: string): boolean {
  const squash = (text: string): string => text.replace(/\s+/g, ' ');
  const flat = squash(view);
  if (flat.includes(squash(message))) return true;
  const quoted = message.match(QUOTED) ?? [];
  if (quoted.length === 0) return false;
  const pieces = squash(message).split(QUOTED);
  return flat.split('\n').length > 0 && view.split('\n').some((row) => {
    const r = squash(row);
    let at = 0;
    for (const piece of pieces) {
      const found = r.indexOf(piece, at);
      if (found < 0) return false;
      at = found + piece.length;
    }
    return quoted.every((q) => r.includes(q));
  });
}
