/**
 * A bounded line diff: the hunks that turn one text into another, found with Myers' O(ND) algorithm after the common
 * prefix and suffix are cut. The work is capped (lines and edit distance): past the caps it answers null, and the
 * caller shows the whole text instead, so a large or pathological change never costs more than the caps allow.
 */

export interface Hunk {
  /** 1-based line of the first removed line in the old text (or the line after which lines were added). */
  readonly oldStart: number;
  readonly removed: readonly string[];
  /** 1-based line of the first added line in the new text (or the line after which lines were removed). */
  readonly newStart: number;
  readonly added: readonly string[];
}

export interface DiffLimits {
  /** Either side longer than this is not diffed. */
  readonly maxLines: number;
  /** Edit distance (removed + added lines) past which the search stops. */
  readonly maxEdits: number;
}

export const DIFF_LIMITS: DiffLimits = { maxLines: 20_000, maxEdits: 2_000 };

/** Lines of a text; a final newline ends the last line rather than starting an empty one. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

/** The hunks from `before` to `after`, or null past the limits; an empty list when they are equal. */
export function diffLines(before: readonly string[], after: readonly string[], limits: DiffLimits = DIFF_LIMITS): Hunk[] | null {
  if (before.length > limits.maxLines || after.length > limits.maxLines) return null;
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  const a = before.slice(head, before.length - tail);
  const b = after.slice(head, after.length - tail);
  const script = editScript(a, b, limits.maxEdits);
  if (script === null) return null;
  return hunksOf(script, a, b, head);
}

/** One step of the edit script: keep a line of both, drop one of `a`, or add one of `b`. */
type Step = 'keep' | 'drop' | 'add';

/** Myers' greedy forward search, keeping each round's frontier to walk the path back; null past maxEdits. */
function editScript(a: readonly string[], b: readonly string[], maxEdits: number): Step[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0)) ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return walkBack(trace, offset, n, m, d);
    }
  }
  return null;
}

function walkBack(trace: readonly Int32Array[], offset: number, n: number, m: number, depth: number): Step[] {
  const steps: Step[] = [];
  let x = n;
  let y = m;
  for (let d = depth; d > 0; d--) {
    const v = trace[d] as Int32Array;
    const k = x - y;
    const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[offset + prevK] ?? 0;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      steps.push('keep');
      x--;
      y--;
    }
    steps.push(down ? 'add' : 'drop');
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    steps.push('keep');
    x--;
    y--;
  }
  return steps.reverse();
}

function hunksOf(script: readonly Step[], a: readonly string[], b: readonly string[], head: number): Hunk[] {
  const hunks: Hunk[] = [];
  let x = 0;
  let y = 0;
  let current: { oldStart: number; removed: string[]; newStart: number; added: string[] } | null = null;
  for (const step of script) {
    if (step === 'keep') {
      if (current !== null) hunks.push(current);
      current = null;
      x++;
      y++;
      continue;
    }
    current ??= { oldStart: head + x + 1, removed: [], newStart: head + y + 1, added: [] };
    if (step === 'drop') current.removed.push(a[x++] ?? '');
    else current.added.push(b[y++] ?? '');
  }
  if (current !== null) hunks.push(current);
  return hunks;
}
