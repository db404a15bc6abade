/**
 * Every regular expression a user passes through our CLI (`tokenless retrieve --grep`) is compiled and run here, with
 * a time bound. JavaScript's backtracking engine takes exponential time on some patterns (`^(a|a)*$` against a long
 * run of `a` and one `b`), and no linear-time check can tell every such pattern from a harmless one, so the whole
 * match runs under a deadline instead: in a `vm` context with `timeout`, whose watchdog interrupts V8 even inside one
 * `RegExp#test` call. Past the deadline the caller gets a refusal that names the limit, never a hang. Filter files'
 * patterns run under the same deadline (runWithDeadline).
 */
import vm from 'node:vm';

/** Longest pattern accepted, in characters. */
export const MAX_PATTERN_CHARS = 1000;
/** Time for one pattern over all the lines it is asked about; a plain pattern over a 100 MB original takes far less. */
export const REGEX_TIME_LIMIT_MS = 2000;

export type Compiled = { readonly ok: true; readonly regex: RegExp } | { readonly ok: false; readonly reason: string };

/** The pattern as a Unicode regular expression (`i` adds case folding); a malformed or over-long one is refused. */
export function compileUserRegex(source: string, ignoreCase: boolean): Compiled {
  if (source === '' || source.length > MAX_PATTERN_CHARS) return { ok: false, reason: `takes a regular expression of 1 to ${MAX_PATTERN_CHARS} characters` };
  try {
    return { ok: true, regex: new RegExp(source, ignoreCase ? 'iu' : 'u') };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

export type Matched = { readonly ok: true; readonly lines: readonly number[] } | { readonly ok: false; readonly reason: string };

/**
 * Runs `work` under a deadline: V8's watchdog interrupts it (inside a regex's backtracking too) once `ms` pass. The
 * one deadline every user regex runs under: `retrieve --grep` below, and filter files (src/filters/file/budget.ts).
 * The context is made once per process (about half a millisecond) and reused.
 */
export function runWithDeadline<T>(work: () => T, ms: number): { readonly ok: true; readonly value: T } | { readonly ok: false } {
  context ??= vm.createContext({ work: null });
  call ??= new vm.Script('work()');
  context['work'] = work;
  try {
    return { ok: true, value: call.runInContext(context, { timeout: ms }) as T };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return { ok: false };
    throw error;
  } finally {
    context['work'] = null;
  }
}

let context: vm.Context | null = null;
let call: vm.Script | null = null;

/** Indexes (0-based) of the lines `regex` matches, or a refusal once the deadline passes. */
export function matchLines(regex: RegExp, lines: readonly string[], limitMs: number = REGEX_TIME_LIMIT_MS): Matched {
  // A stateful (g/y) regex would carry lastIndex from line to line: match with a fresh, stateless copy.
  const stateless = regex.global || regex.sticky ? new RegExp(regex.source, regex.flags.replace(/[gy]/gu, '')) : regex;
  const run = runWithDeadline(() => {
    const found: number[] = [];
    for (let i = 0; i < lines.length; i++) if (stateless.test(lines[i] ?? '')) found.push(i);
    return found;
  }, limitMs);
  if (run.ok) return { ok: true, lines: run.value };
  return {
    ok: false,
    reason: `/${regex.source}/ did not finish within the ${limitMs / 1000} s limit for a pattern: it backtracks too much on this text (nested or overlapping repetition such as (a|a)* or (a+)+); simplify it`,
  };
}
