/**
 * Every regular expression a user passes through our CLI (`tokenless retrieve --grep`) is compiled and run here, with
 * a time bound. JavaScript's backtracking engine takes exponential time on some patterns (`^(a|a)*$` against a long
 * run of `a` and one `b`), so the whole match runs under a deadline (src/reduce/deadline.ts, shared with filter
 * files). Past the deadline the caller gets a refusal that names the limit, never a hang.
 */
import { DeadlinePassed, withinDeadline } from '../reduce/deadline.ts';

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


/** Indexes (0-based) of the lines `regex` matches, or a refusal once the deadline passes. */
export function matchLines(regex: RegExp, lines: readonly string[], limitMs: number = REGEX_TIME_LIMIT_MS): Matched {
  // A stateful (g/y) regex would carry lastIndex from line to line: match with a fresh, stateless copy.
  const stateless = regex.global || regex.sticky ? new RegExp(regex.source, regex.flags.replace(/[gy]/gu, '')) : regex;
  try {
    const found = withinDeadline(() => {
      const out: number[] = [];
      for (let i = 0; i < lines.length; i++) if (stateless.test(lines[i] ?? '')) out.push(i);
      return out;
    }, limitMs);
    return { ok: true, lines: found };
  } catch (error) {
    if (!(error instanceof DeadlinePassed)) throw error;
    return {
      ok: false,
      reason: `/${regex.source}/ did not finish within the ${limitMs / 1000} s limit for a pattern: it backtracks too much on this text (nested or overlapping repetition such as (a|a)* or (a+)+); simplify it`,
    };
  }
}
