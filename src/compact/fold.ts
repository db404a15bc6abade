/**
 * Recoverable compaction of context files (pure): finished list items and stale sections are folded into one short
 * line carrying a marker; the folded bytes become stash entries. Restoring puts each original back byte-exact.
 */
import { elide, type StashEntry } from '../reduce/candidate.ts';
import { parseMarker } from '../store/marker.ts';

export interface CompactOptions {
  /** Fold runs of finished items (`- [x]`, `~~done~~`, `✅`). */
  readonly finished: boolean;
  /** Fold the bodies of sections whose heading says they are done or archived. */
  readonly staleSections: boolean;
}

export interface Fold {
  readonly kind: 'finished' | 'section';
  /** 1-based first line of the folded block in the input. */
  readonly line: number;
  readonly lines: number;
  readonly original: string;
  readonly replacement: string;
  readonly key: string;
}

export interface CompactPlan {
  readonly output: string;
  readonly folds: readonly Fold[];
  readonly entries: readonly StashEntry[];
}

const FINISHED = /^(\s*)(?:[-*+]|\d+[.)])\s+(?:\[[xX]\]|~~|✅|✔|☑)/u;
const LIST_ITEM = /^(\s*)(?:[-*+]|\d+[.)])\s+/u;
const HEADING = /^(#{1,6})\s+(.*)$/u;
const STALE_HEADING = /\b(done|completed?|finished|archived?|changelog|history|resolved|shipped)\b/iu;
// The marker's id in either form: decimal, or hex as folds were written before.
const FOLD_LINE = /syt: [^\n]*folded[^\n]*(<<tokenless:(?:[0-9a-f]{24}|[0-9]{29})>>)/u;

/** The stash key of a fold line, or undefined when the line is not one. */
function foldKey(line: string): string | undefined {
  const marker = FOLD_LINE.exec(line)?.[1];
  return marker === undefined ? undefined : (parseMarker(marker) ?? undefined);
}

/** Splits keeping each line's own ending, so joins are byte-exact. */
export function splitLines(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/u);
}

export function planCompaction(text: string, options: CompactOptions): CompactPlan {
  const lines = splitLines(text);
  const out: string[] = [];
  const folds: Fold[] = [];
  const entries: StashEntry[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const heading = HEADING.exec(line.trimEnd());
    if (options.staleSections && heading !== null && STALE_HEADING.test(heading[2] ?? '')) {
      const end = sectionEnd(lines, i, (heading[1] ?? '#').length);
      const body = lines.slice(i + 1, end);
      if (foldable(body)) {
        out.push(line);
        out.push(fold('section', i + 2, body, `syt: section body folded (${body.length} lines)`, folds, entries));
        i = end;
        continue;
      }
    }
    if (options.finished && FINISHED.test(line) && !FOLD_LINE.test(line)) {
      const end = finishedRunEnd(lines, i);
      const run = lines.slice(i, end);
      const count = run.filter((l) => FINISHED.test(l)).length;
      if (count >= 2 || run.join('').length > 200) {
        const indent = FINISHED.exec(line)?.[1] ?? '';
        out.push(fold('finished', i + 1, run, `${indent}- [x] syt: ${count} finished item${count === 1 ? '' : 's'} folded (${titles(run)})`, folds, entries));
        i = end;
        continue;
      }
    }
    out.push(line);
    i += 1;
  }
  return { output: out.join(''), folds, entries };
}

/** Replaces each fold line with its original; keys the lookup cannot answer stay folded and are reported. */
export function restoreText(text: string, lookup: (key: string) => string | null): { output: string; restored: number; missing: string[] } {
  const missing: string[] = [];
  let restored = 0;
  const out = splitLines(text).map((line) => {
    const key = foldKey(line);
    if (key === undefined) return line;
    const original = lookup(key);
    if (original === null) {
      missing.push(key);
      return line;
    }
    restored += 1;
    return original;
  });
  return { output: out.join(''), restored, missing };
}

/** Keys of every fold line in a file. */
export function foldKeys(text: string): string[] {
  return splitLines(text).flatMap((line) => foldKey(line) ?? []);
}

function fold(kind: Fold['kind'], line: number, block: readonly string[], summary: string, folds: Fold[], entries: StashEntry[]): string {
  const original = block.join('');
  const { entry, marker } = elide(original);
  const ending = /\r?\n$/u.exec(original)?.[0] ?? '';
  const replacement = `${summary} ${marker}${ending}`;
  folds.push({ kind, line, lines: block.length, original, replacement, key: entry.key });
  entries.push(entry);
  return replacement;
}

/** A section ends at the next heading of the same or a higher level. */
function sectionEnd(lines: readonly string[], start: number, level: number): number {
  for (let j = start + 1; j < lines.length; j += 1) {
    const heading = HEADING.exec((lines[j] ?? '').trimEnd());
    if (heading !== null && (heading[1] ?? '').length <= level) return j;
  }
  return lines.length;
}

/** Finished items with their indented continuation lines; blank lines inside the run are kept only between items. */
function finishedRunEnd(lines: readonly string[], start: number): number {
  const baseIndent = (FINISHED.exec(lines[start] ?? '')?.[1] ?? '').length;
  let end = start;
  let j = start;
  while (j < lines.length) {
    const line = lines[j] ?? '';
    if (FINISHED.test(line) && (FINISHED.exec(line)?.[1] ?? '').length === baseIndent) {
      j += 1;
      end = j;
      continue;
    }
    const item = LIST_ITEM.exec(line);
    const indent = /^\s*/u.exec(line)?.[0].replace(/\r?\n/u, '').length ?? 0;
    if (line.trim() !== '' && indent > baseIndent && (item === null || indent > baseIndent)) {
      j += 1;
      end = j;
      continue;
    }
    if (line.trim() === '' && FINISHED.test(lines[j + 1] ?? '')) {
      j += 1;
      continue;
    }
    break;
  }
  return end;
}

function foldable(body: readonly string[]): boolean {
  return body.some((l) => l.trim() !== '') && !body.some((l) => FOLD_LINE.test(l)) && body.join('').length > 80;
}

/** The first few item titles, so the fold line still says what was done. */
function titles(run: readonly string[]): string {
  const names = run.filter((l) => FINISHED.test(l)).map((l) => l.replace(FINISHED, '').replace(/~~/gu, '').trim().slice(0, 30));
  const shown = names.slice(0, 2).map((n) => JSON.stringify(n)).join(', ');
  return names.length > 2 ? `${shown}, …` : shown;
}
