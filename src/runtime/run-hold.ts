/**
 * How long `tokenless run` on a pipe holds output back for a view before it streams raw (issue 30, items 10 and 11).
 * The default is short because a pipe's reader may read while the program runs (Codex's exec_command returns what
 * arrived within the model's yield time; a background poll reads a dev server's `ready` line). A harness whose client
 * reads nothing until the program exits says so per call through CALLER_HOLD_VAR, which pre_tool puts on the
 * rewritten line beside the attribution variables and `run` removes before the program starts.
 */
export const DEFAULT_PIPE_HOLD_MS = 500;
/** Set by pre_tool for one wrapped command; never seen by the program. */
export const CALLER_HOLD_VAR = 'TOKENLESS_HOLD_MS';
/** The longest hold a harness may ask for: a client's own timeout must stay far longer than this. */
export const MAX_CALLER_HOLD_MS = 20_000;

/** The user's TOKENLESS_RUN_HOLD_MS wins, then the harness's per-call hold (bounded), then the default. */
export function pipeHoldMs(env: Readonly<Record<string, string | undefined>>): number {
  const user = wholeMs(env['TOKENLESS_RUN_HOLD_MS']);
  if (user !== null) return user;
  const caller = wholeMs(env[CALLER_HOLD_VAR]);
  return caller !== null ? Math.min(caller, MAX_CALLER_HOLD_MS) : DEFAULT_PIPE_HOLD_MS;
}

function wholeMs(text: string | undefined): number | null {
  if (text === undefined || !/^[0-9]{1,9}$/.test(text)) return null;
  return Number(text);
}
