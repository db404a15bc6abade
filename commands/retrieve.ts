import * as z from 'zod/mini';
import { loadConfig } from '../src/config/config.ts';
import { sessionFromEnv } from '../src/harness/registry.ts';
import { selectPart } from '../src/runtime/retrieve-part.ts';
import { retrieveBytes } from '../src/runtime/retrieve.ts';
import { Runtime } from '../src/runtime/runtime.ts';
import { exactUtf8, markerId, parseMarker } from '../src/store/marker.ts';
import { CliError, usageError } from './shared/errors.ts';
import { parseOptions } from './shared/options.ts';
import { PartOptions, partRequest } from './shared/retrieve-part.ts';

const Options = z.object({ session: z.optional(z.string()), anySession: z.optional(z.boolean()), ...PartOptions });

/**
 * Prints the original bytes exactly, nothing added; any refusal is exit 1 with nothing on stdout. With --lines,
 * --grep or --search only that part is printed, and one line on stderr says what was shown and how to get more.
 */
export function retrieveCommand(marker: string, raw: unknown): void {
  const options = parseOptions(Options, raw, 'retrieve');
  if (options.anySession === true && !personAtTerminal()) throw new CliError(ANY_SESSION_REFUSED);
  if (parseMarker(marker) === null) throw usageError(`tokenless retrieve: ${JSON.stringify(marker)} is not a marker: expected [tokenless retrieve ID], <<tokenless:ID>> or the bare ID`);
  const part = partRequest(options);
  const env = process.env;
  const sessionId = options.session ?? sessionFromEnv(env);
  const runtime = new Runtime(loadConfig());
  try {
    const outcome = retrieveBytes(runtime, marker, { sessionId, visibleMarkers: [], anySession: options.anySession === true });
    if (!outcome.ok) throw new CliError(`tokenless retrieve: ${outcome.reason}`);
    if (part === null) {
      process.stdout.write(outcome.bytes);
      return;
    }
    const text = exactUtf8(outcome.bytes);
    if (text === null) throw new CliError('tokenless retrieve: the original is not UTF-8 text; retrieve it whole (no --lines, --grep or --search)');
    const shown = selectPart(text, part, `tokenless retrieve ${markerId(parseMarker(marker) ?? '')}`);
    process.stdout.write(shown.text);
    process.stderr.write(`${shown.note}\n`);
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
