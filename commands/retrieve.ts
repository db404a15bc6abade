import * as z from 'zod/mini';
import { loadConfig } from '../src/config/config.ts';
import { retrieveBytes } from '../src/runtime/retrieve.ts';
import { Runtime } from '../src/runtime/runtime.ts';
import { CliError } from './errors.ts';
import { parseOptions } from './options.ts';

const Options = z.object({ session: z.optional(z.string()), anySession: z.optional(z.boolean()) });

/** Prints the original bytes exactly, nothing added; any refusal is exit 1 with nothing on stdout. */
export function retrieveCommand(marker: string, raw: unknown): void {
  const options = parseOptions(Options, raw, 'retrieve');
  if (options.anySession === true && !personAtTerminal()) throw new CliError(ANY_SESSION_REFUSED);
  const env = process.env;
  const sessionId = options.session ?? env['TOKENLESS_SESSION_ID'] ?? env['CLAUDE_CODE_SESSION_ID'] ?? null;
  const runtime = new Runtime(loadConfig());
  try {
    const outcome = retrieveBytes(runtime, marker, { sessionId, visibleMarkers: [], anySession: options.anySession === true });
    if (!outcome.ok) throw new CliError(`tokenless retrieve: ${outcome.reason}`);
    process.stdout.write(outcome.bytes);
  } finally {
    runtime.close();
  }
}

export const ANY_SESSION_REFUSED =
  'tokenless retrieve: --any-session needs a person at a terminal (stdin and stdout a TTY); an agent\'s shell has none, so retrieve there by the session that was shown the marker';

/**
 * `--any-session` skips the session check, so the model must not be able to type it: Claude Code's Bash tool (and any
 * agent that captures output) gives the command a pipe, not a terminal. A person at a terminal has both ends a TTY.
 */
function personAtTerminal(): boolean {
  return process.stdin.isTTY === true && process.stdout.isTTY === true;
}
