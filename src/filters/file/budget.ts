/**
 * Bounds on the regular expressions a filter file brings. A repo's filter file is data from someone else, and a
 * JavaScript regex can backtrack for hours on one line, so two bounds hold: at load, a pattern that repeats a group
 * which itself repeats (`(a+)+`, `(\w*x)*`: the classic catastrophic shape) is refused with the reason; at run time,
 * all the filter's work on one output runs under a deadline (a `vm` timeout, which V8 enforces inside a regex's
 * backtracking too: src/reduce/deadline.ts), after which the filter declines and the raw output is shown.
 */
import { withinDeadline } from '../../reduce/deadline.ts';

export { DeadlinePassed as BudgetExceeded } from '../../reduce/deadline.ts';

/** What one filter may spend on one output. */
export const FILTER_TIME_BUDGET_MS = 250;
/** Outputs larger than this are not given to filter files at all (the built-ins and the raw output remain). */
export const FILTER_INPUT_MAX_BYTES = 32 * 1024 * 1024;

/** Runs `work` within the filter's time budget; throws DeadlinePassed past it. */
export function withinBudget<T>(work: () => T, ms = FILTER_TIME_BUDGET_MS): T {
  return withinDeadline(work, ms);
}

export type CompiledPattern = { readonly ok: true; readonly regex: RegExp } | { readonly ok: false; readonly reason: string };

/** Compiles a pattern from a filter file, or says why it cannot be used. */
export function compilePattern(source: string): CompiledPattern {
  const nested = nestedRepeat(source);
  if (nested !== null) {
    return { ok: false, reason: `${nested} repeats a group that itself repeats, which can backtrack without end; repeat the inner part only` };
  }
  try {
    return { ok: true, regex: new RegExp(source) };
  } catch (error) {
    return { ok: false, reason: (error as Error).message.replace(/^Invalid regular expression: /, '') };
  }
}

/**
 * The first group that is repeated without bound (`*`, `+`, `{n,}`) and holds an unbounded repeat itself, as
 * written (`(a+)+`), or null. Escapes and character classes are skipped; lookarounds count as groups.
 */
export function nestedRepeat(source: string): string | null {
  const open: { start: number; repeats: boolean }[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') {
      inClass = true;
      continue;
    }
    if (char === '(') {
      open.push({ start: i, repeats: false });
      continue;
    }
    const unbounded = unboundedAt(source, i + 1);
    if (char === ')') {
      const group = open.pop();
      if (group === undefined) continue;
      if (unbounded && group.repeats) return source.slice(group.start, i + 2);
      const parent = open[open.length - 1];
      if (parent !== undefined && (group.repeats || unbounded)) parent.repeats = true;
      continue;
    }
    const parent = open[open.length - 1];
    if (parent !== undefined && (char === '*' || char === '+' || (char === '{' && /^\{\d+,\}/.test(source.slice(i))))) parent.repeats = true;
  }
  return null;
}

/** Whether the quantifier starting at `index` (if any) has no upper bound. */
function unboundedAt(source: string, index: number): boolean {
  const next = source[index];
  if (next === '*' || next === '+') return true;
  return next === '{' && /^\{\d+,\}/.test(source.slice(index));
}

/** `text` as a pattern that matches exactly it. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
