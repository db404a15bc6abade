import { fromStreams, pays, type StreamCandidate } from '../reduce/stream.ts';
import type { CommandOutput, FilteredStream } from './types.ts';

export { cleanTerminalText, stripAnsi } from '../reduce/terminal.ts';

/** Splits on `\n`; a final newline does not produce an empty last line. `\r` stays on its line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Joins lines back with `\n`, ending with one when there is any line. */
export function joinLines(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

export const unchanged = (text: string): FilteredStream => ({ text, lossy: false });
export const lossy = (text: string): FilteredStream => ({ text, lossy: true });

/** A filter's candidate from per-stream results; a stream that does not pay (retrieval line counted) keeps its
 * original text, and when neither stream pays the filter declines (null). */
export function makeView(
  name: string,
  output: CommandOutput,
  stdout: FilteredStream | null,
  stderr: FilteredStream | null,
): StreamCandidate | null {
  const out = stdout !== null && pays(output.stdout, stdout) ? stdout : null;
  const err = stderr !== null && pays(output.stderr, stderr) ? stderr : null;
  if (out === null && err === null) return null;
  return fromStreams(name, output, { stdout: out ?? unchanged(output.stdout), stderr: err ?? unchanged(output.stderr) });
}

/** Folds runs of identical consecutive lines (`line ×N`) and of lines that differ only in their numbers
 * (first and last kept, the middle counted). Runs shorter than `min` stay as they are. */
export function foldRuns(lines: readonly string[], min = 3): string[] {
  const result: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    let same = i + 1;
    while (same < lines.length && lines[same] === line) same++;
    if (same - i >= min && line.trim() !== '') {
      result.push(`${line} ×${same - i}`);
      i = same;
      continue;
    }
    const key = numberShape(line);
    let similar = i + 1;
    while (key !== null && similar < lines.length && numberShape(lines[similar] ?? '') === key) similar++;
    if (key !== null && similar - i >= Math.max(min, 4)) {
      result.push(line, `… ${similar - i - 2} more like this …`, lines[similar - 1] ?? '');
      i = similar;
      continue;
    }
    result.push(line);
    i++;
  }
  return result;
}

/** The line with every number replaced, or null when it has no number (such lines are folded only when identical). */
function numberShape(line: string): string | null {
  return /\d/.test(line) ? line.replace(/\d+(?:\.\d+)?/g, '#') : null;
}

/** Quotes a name only when it would be ambiguous in a space-separated list. */
export function listName(name: string): string {
  return /[\s;"]/.test(name) || name === '' ? JSON.stringify(name) : name;
}

/** Extensions a listing could factor out of a name, longest first (`a.spec.ts` -> `.spec.ts`, `.ts`). */
export function nameSuffixes(name: string): string[] {
  const result: string[] = [];
  const go = /^.+(_test\.go)$/.exec(name);
  if (go !== null) result.push(go[1] ?? '');
  const match = /^(?:.*?[^.])((?:\.[A-Za-z][A-Za-z0-9]{0,5}){1,3})$/.exec(name);
  const ext = match?.[1];
  if (ext !== undefined) {
    const parts = ext.split('.').slice(1);
    for (let i = 0; i < parts.length; i++) result.push(`.${parts.slice(i).join('.')}`);
  }
  return result;
}

/** Lists the names of one directory compactly: names sharing an extension (3 or more) become `*.ext: a b c`; each
 * name takes the longest of its extensions that at least three names share. */
export function compactNames(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) for (const suffix of nameSuffixes(name)) counts.set(suffix, (counts.get(suffix) ?? 0) + 1);
  const chosen = names.map((name) => nameSuffixes(name).find((suffix) => (counts.get(suffix) ?? 0) >= 3) ?? null);
  const bySuffix = new Map<string, string[]>();
  names.forEach((name, i) => {
    const suffix = chosen[i];
    if (suffix === null || suffix === undefined) return;
    const group = bySuffix.get(suffix) ?? [];
    group.push(name);
    bySuffix.set(suffix, group);
  });
  const plain: string[] = [];
  const groups: string[] = [];
  names.forEach((name, i) => {
    const suffix = chosen[i];
    const group = suffix === null || suffix === undefined ? undefined : bySuffix.get(suffix);
    if (suffix === null || suffix === undefined || group === undefined || group.length < 3) {
      plain.push(listName(name));
    } else if (group[0] === name) {
      groups.push(`*${suffix}: ${group.map((n) => listName(n.slice(0, n.length - suffix.length))).join(' ')}`);
    }
  });
  return [...(plain.length > 0 ? [plain.join(' ')] : []), ...groups].join('; ');
}

/** Groups paths by directory in order of first appearance; one line per directory: `dir/: names`. */
export function groupPathsByDir(paths: readonly string[]): string[] {
  const dirs = new Map<string, string[]>();
  for (const path of paths) {
    const cut = path.endsWith('/') ? path.slice(0, -1).lastIndexOf('/') : path.lastIndexOf('/');
    const dir = cut < 0 ? '' : path.slice(0, cut + 1);
    const names = dirs.get(dir) ?? [];
    names.push(path.slice(cut + 1));
    dirs.set(dir, names);
  }
  return [...dirs].map(([dir, names]) => (dir === '' ? compactNames(names) : `${dir}: ${compactNames(names)}`));
}
