/**
 * Recoverable compaction of context files (pure): done checklist items, sections whose every item is done and dated
 * changelog entries are folded into one short line carrying a marker; the folded bytes become stash entries.
 * Restoring puts each original back byte-exact.
 */
import { elide, type StashEntry } from '../reduce/candidate.ts';
import { parseMarker } from '../store/marker.ts';

export interface CompactOptions {
  /** Fold runs of done checklist items (`- [x]`). */
  readonly finished: boolean;
  /** Fold the bodies of sections whose every item is done, and of dated changelog entries. */
  readonly staleSections: boolean;
}

export interface Fold {
  readonly kind: 'finished' | 'section' | 'dated';
  /** 1-based first line of the folded block in the input. */
  readonly line: number;
  readonly lines: number;
  /** Why this block is finished, in words a person can check against the original. */
  readonly reason: string;
  readonly original: string;
  readonly replacement: string;
  readonly key: string;
}

export interface CompactPlan {
  readonly output: string;
  readonly folds: readonly Fold[];
  readonly entries: readonly StashEntry[];
}

/**
 * Only what the text itself marks as finished folds: a checked box. A heading's words never count ("History
 * hygiene", "Changelog rules" and "Done criteria" head live instructions), nor do ✅ or strikethrough, which
 * instruction files use for "do this" and "no longer this" lists.
 */
const FINISHED = /^(\s*)(?:[-*+]|\d+[.)])\s+\[[xX]\]\s/u;
const OPEN = /^(\s*)(?:[-*+]|\d+[.)])\s+\[ \]/u;
const HEADING = /^(#{1,6})\s+(.*)$/u;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/u;
const ISO_DATE = '\\d{4}-\\d{2}-\\d{2}';
/** A released changelog entry: a version, then its date (`## [1.2.0] - 2026-01-16`, `## v0.3.0 (2026-02-23)`). */
const RELEASE = new RegExp(`^\\[?v?\\d+(?:\\.\\d+)+[^\\]\\s]*\\]?\\s*(?:[-–—:]\\s*)?\\(?(${ISO_DATE})\\)?`, 'u');
/** A dated log entry: the heading starts with its date (`## 2025-09-25 — Agent: Codex`, `### 2026-01-12: session 3`). */
const DATED = new RegExp(`^\\(?(${ISO_DATE})\\b`, 'u');
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

/** Which lines sit inside a fenced code block (the fence lines included): no heading or item is read there. */
function fencedLines(lines: readonly string[]): boolean[] {
  const fenced: boolean[] = [];
  let open: string | null = null;
  for (const line of lines) {
    const fence = FENCE.exec(line)?.[1];
    if (open === null && fence !== undefined) {
      open = fence;
      fenced.push(true);
    } else if (open !== null) {
      fenced.push(true);
      if (fence !== undefined && fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) open = null;
    } else fenced.push(false);
  }
  return fenced;
}

interface Doc {
  readonly lines: readonly string[];
  readonly fenced: readonly boolean[];
  /** Line index of the newest dated log entry: it is what the agent reads next, so it never folds. */
  readonly newestDated: number | null;
}

export function planCompaction(text: string, options: CompactOptions): CompactPlan {
  const lines = splitLines(text);
  const doc: Doc = { lines, fenced: fencedLines(lines), newestDated: newestDated(lines, fencedLines(lines)) };
  const out: string[] = [];
  const folds: Fold[] = [];
  const entries: StashEntry[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const heading = doc.fenced[i] === true ? null : HEADING.exec(line.trimEnd());
    if (options.staleSections && heading !== null) {
      const end = sectionEnd(doc, i, (heading[1] ?? '#').length);
      const body = lines.slice(i + 1, end);
      const why = finishedSection(doc, i, end, heading[2] ?? '');
      if (why !== null && foldable(body)) {
        out.push(line);
        out.push(fold(why.kind, i + 2, body, `syt: ${why.kind === 'dated' ? 'dated entry' : 'section body'} folded (${body.length} lines)`, why.reason, folds, entries));
        i = end;
        continue;
      }
    }
    if (options.finished && doc.fenced[i] !== true && FINISHED.test(line) && !FOLD_LINE.test(line)) {
      const end = finishedRunEnd(doc, i);
      const run = lines.slice(i, end);
      const count = run.filter((l) => FINISHED.test(l)).length;
      if (count >= 2 || run.join('').length > 200) {
        const indent = FINISHED.exec(line)?.[1] ?? '';
        const reason = `${count} checked item${count === 1 ? '' : 's'} ([x]), none open`;
        out.push(fold('finished', i + 1, run, `${indent}- [x] syt: ${count} finished item${count === 1 ? '' : 's'} folded (${titles(run)})`, reason, folds, entries));
        i = end;
        continue;
      }
    }
    out.push(line);
    i += 1;
  }
  return { output: out.join(''), folds, entries };
}

/**
 * Why a section is finished, or null: every item in it (subsections included) is a checked box and nothing else is
 * said there; or it is a dated changelog entry with no open item (a release always, a dated log entry unless it is
 * the newest one).
 */
function finishedSection(doc: Doc, start: number, end: number, title: string): { kind: 'section' | 'dated'; reason: string } | null {
  const body = doc.lines.slice(start + 1, end);
  const fenced = doc.fenced.slice(start + 1, end);
  const open = body.some((line, n) => fenced[n] !== true && OPEN.test(line));
  const release = RELEASE.exec(title.trim())?.[1];
  if (release !== undefined && !open) return { kind: 'dated', reason: `a released changelog entry (${release}), no open item` };
  const dated = DATED.exec(title.trim())?.[1];
  if (dated !== undefined && !open && doc.newestDated !== start) return { kind: 'dated', reason: `a dated log entry (${dated}) older than the newest, no open item` };
  if (open) return null;
  let items = 0;
  let inDoneItem = false;
  for (let n = 0; n < body.length; n += 1) {
    const line = body[n] ?? '';
    if (line.trim() === '') continue;
    if (fenced[n] === true) {
      if (!inDoneItem) return null;
      continue;
    }
    if (HEADING.test(line.trimEnd())) {
      inDoneItem = false;
      continue;
    }
    if (FINISHED.test(line)) {
      items += 1;
      inDoneItem = true;
      continue;
    }
    // An indented line (a note, a nested bullet, no open box) continues the checked item above it; anything else is
    // live text.
    if (inDoneItem && /^\s+\S/u.test(line)) continue;
    return null;
  }
  return items === 0 ? null : { kind: 'section', reason: `every item in it (${items}) is checked ([x])` };
}

/** The line index of the dated log entry with the latest date (the first such heading on a tie). */
function newestDated(lines: readonly string[], fenced: readonly boolean[]): number | null {
  let best: { index: number; date: string } | null = null;
  lines.forEach((line, index) => {
    if (fenced[index] === true) return;
    const title = HEADING.exec(line.trimEnd())?.[2]?.trim();
    const date = title === undefined ? undefined : DATED.exec(title)?.[1];
    if (date !== undefined && (best === null || date > best.date)) best = { index, date };
  });
  return (best as { index: number } | null)?.index ?? null;
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

function fold(kind: Fold['kind'], line: number, block: readonly string[], summary: string, reason: string, folds: Fold[], entries: StashEntry[]): string {
  const original = block.join('');
  const { entry, marker } = elide(original);
  const ending = /\r?\n$/u.exec(original)?.[0] ?? '';
  const replacement = `${summary} ${marker}${ending}`;
  folds.push({ kind, line, lines: block.length, reason, original, replacement, key: entry.key });
  entries.push(entry);
  return replacement;
}

/** A section ends at the next heading (outside a code fence) of the same or a higher level. */
function sectionEnd(doc: Doc, start: number, level: number): number {
  for (let j = start + 1; j < doc.lines.length; j += 1) {
    if (doc.fenced[j] === true) continue;
    const heading = HEADING.exec((doc.lines[j] ?? '').trimEnd());
    if (heading !== null && (heading[1] ?? '').length <= level) return j;
  }
  return doc.lines.length;
}

/**
 * Checked items with their indented continuation lines; blank lines inside the run are kept only between items. A
 * nested open item (`  - [ ] subtask`) ends the run before the item that holds it: that item is not finished.
 */
function finishedRunEnd(doc: Doc, start: number): number {
  const { lines } = doc;
  const baseIndent = (FINISHED.exec(lines[start] ?? '')?.[1] ?? '').length;
  let end = start;
  let itemStart = start;
  let j = start;
  while (j < lines.length) {
    const line = lines[j] ?? '';
    if (doc.fenced[j] !== true && FINISHED.test(line) && (FINISHED.exec(line)?.[1] ?? '').length === baseIndent) {
      itemStart = j;
      j += 1;
      end = j;
      continue;
    }
    const indent = /^\s*/u.exec(line)?.[0].replace(/\r?\n/u, '').length ?? 0;
    if (line.trim() !== '' && indent > baseIndent) {
      if (doc.fenced[j] !== true && OPEN.test(line)) return itemStart;
      j += 1;
      end = j;
      continue;
    }
    if (line.trim() === '' && doc.fenced[j + 1] !== true && FINISHED.test(lines[j + 1] ?? '')) {
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
  const names = run.filter((l) => FINISHED.test(l)).map((l) => l.replace(FINISHED, '').trim().slice(0, 30));
  const shown = names.slice(0, 2).map((n) => JSON.stringify(n)).join(', ');
  return names.length > 2 ? `${shown}, …` : shown;
}
