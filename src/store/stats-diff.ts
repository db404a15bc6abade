/**
 * Unified diffs for audits (`tokenless stats diff`): what the model saw instead of what the tool printed. Capped at
 * 500 lines and 1 MiB of output, with the cut stated. Pure; the line alignment is an exact LCS on the region between
 * the common prefix and suffix when that is small enough, else the region is shown as removed-then-added (still a
 * correct diff, just not minimal), so a huge output cannot make an audit quadratic.
 */
export const DIFF_MAX_LINES = 500;
export const DIFF_MAX_BYTES = 1024 * 1024;
/** Above this many cells the LCS table would cost too much memory and time. */
const LCS_MAX_CELLS = 4_000_000;
const CONTEXT = 3;

export interface UnifiedDiff {
  readonly text: string;
  readonly lines: number;
  readonly truncated: boolean;
  readonly added: number;
  readonly removed: number;
}

type Op = { readonly kind: ' ' | '-' | '+'; readonly line: string; readonly a: number; readonly b: number };

export function unifiedDiff(before: string, after: string, labels: { before: string; after: string } = { before: 'before', after: 'after' }): UnifiedDiff {
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = align(a, b);
  const added = ops.filter((op) => op.kind === '+').length;
  const removed = ops.filter((op) => op.kind === '-').length;
  const out: string[] = [`--- ${labels.before}`, `+++ ${labels.after}`];
  for (const hunk of hunks(ops)) out.push(...hunk);
  return cap(out, added, removed);
}

/** Lines without their newline; a last line without one carries diff(1)'s marker, so a lost newline shows as a change. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  else lines[lines.length - 1] = `${lines.at(-1) ?? ''}\n\\ No newline at end of file`;
  return lines;
}

/** Edit script: common prefix, LCS (or replace) of the middle, common suffix. */
function align(a: readonly string[], b: readonly string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops: Op[] = [];
  for (let i = 0; i < start; i++) ops.push({ kind: ' ', line: a[i] ?? '', a: i, b: i });
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if (midA.length * midB.length <= LCS_MAX_CELLS) ops.push(...lcs(midA, midB, start, start));
  else {
    midA.forEach((line, i) => ops.push({ kind: '-', line, a: start + i, b: start }));
    midB.forEach((line, j) => ops.push({ kind: '+', line, a: endA, b: start + j }));
  }
  for (let i = endA; i < a.length; i++) ops.push({ kind: ' ', line: a[i] ?? '', a: i, b: endB + (i - endA) });
  return ops;
}

function lcs(a: readonly string[], b: readonly string[], offA: number, offB: number): Op[] {
  const n = a.length;
  const m = b.length;
  // Suffix LCS lengths in one flat table: table[i * (m + 1) + j] = LCS of a[i..] and b[j..].
  const table = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * (m + 1) + j] =
        a[i] === b[j] ? (table[(i + 1) * (m + 1) + j + 1] ?? 0) + 1 : Math.max(table[(i + 1) * (m + 1) + j] ?? 0, table[i * (m + 1) + j + 1] ?? 0);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i] ?? '', a: offA + i, b: offB + j });
      i++;
      j++;
    } else if (i < n && (j === m || (table[(i + 1) * (m + 1) + j] ?? 0) >= (table[i * (m + 1) + j + 1] ?? 0))) {
      // Removals before additions on a tie, as diff(1) prints them.
      ops.push({ kind: '-', line: a[i] ?? '', a: offA + i, b: offB + j });
      i++;
    } else {
      ops.push({ kind: '+', line: b[j] ?? '', a: offA + i, b: offB + j });
      j++;
    }
  }
  return ops;
}

/** Groups changes with up to three lines of context into `@@ -a,n +b,m @@` hunks. */
function hunks(ops: readonly Op[]): string[][] {
  const result: string[][] = [];
  let i = 0;
  while (i < ops.length) {
    while (i < ops.length && ops[i]?.kind === ' ') i++;
    if (i >= ops.length) break;
    const from = Math.max(0, i - CONTEXT);
    let to = i;
    let lastChange = i;
    while (to < ops.length) {
      if (ops[to]?.kind !== ' ') lastChange = to;
      else if (to - lastChange > 2 * CONTEXT) break;
      to++;
    }
    const end = Math.min(ops.length, lastChange + CONTEXT + 1);
    const slice = ops.slice(from, end);
    const first = slice[0];
    const oldCount = slice.filter((op) => op.kind !== '+').length;
    const newCount = slice.filter((op) => op.kind !== '-').length;
    const oldStart = oldCount === 0 ? (first?.a ?? 0) : (first?.a ?? 0) + 1;
    const newStart = newCount === 0 ? (first?.b ?? 0) : (first?.b ?? 0) + 1;
    result.push([`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`, ...slice.map((op) => `${op.kind}${op.line}`)]);
    i = end;
  }
  return result;
}

function cap(lines: readonly string[], added: number, removed: number): UnifiedDiff {
  const kept: string[] = [];
  let bytes = 0;
  let truncated = false;
  for (const line of lines) {
    const size = Buffer.byteLength(line) + 1;
    if (kept.length >= DIFF_MAX_LINES || bytes + size > DIFF_MAX_BYTES) {
      truncated = true;
      break;
    }
    kept.push(line);
    bytes += size;
  }
  const text = kept.join('\n') + (kept.length > 0 ? '\n' : '');
  return { text, lines: kept.length, truncated, added, removed };
}
