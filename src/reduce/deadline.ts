/**
 * Work under a deadline, for the regular expressions people bring (`retrieve --grep`, filter files). JavaScript's
 * backtracking engine takes exponential time on some patterns, and no linear-time check tells every such pattern from
 * a harmless one, so the work runs in a `vm` context with `timeout`, whose watchdog interrupts V8 even inside one
 * `RegExp#test` call. The context is made once per process (about half a millisecond) and reused.
 */
import { Script, createContext, type Context } from 'node:vm';

export class DeadlinePassed extends Error {
  readonly limitMs: number;
  constructor(limitMs: number) {
    super(`the work ran longer than its ${limitMs} ms limit`);
    this.limitMs = limitMs;
  }
}

let context: Context | null = null;
let call: Script | null = null;

/** Runs `work` and throws DeadlinePassed if it has not returned within `ms`. */
export function withinDeadline<T>(work: () => T, ms: number): T {
  context ??= createContext({ work: null });
  call ??= new Script('work()');
  context['work'] = work;
  try {
    return call.runInContext(context, { timeout: ms }) as T;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new DeadlinePassed(ms);
    throw error;
  } finally {
    context['work'] = null;
  }
}
