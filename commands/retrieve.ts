import * as z from 'zod/mini';
import { loadConfig } from '../src/config/config.ts';
import { sessionFromEnv } from '../src/harness/registry.ts';
import { PartRefused, selectPart } from '../src/runtime/retrieve-part.ts';
import { retrieveBytes } from '../src/runtime/retrieve.ts';
import { recordRetrievalTurn } from '../src/runtime/loop-breaker.ts';
import { Runtime } from '../src/runtime/runtime.ts';
import { exactUtf8, markerId, parseMarker } from '../src/store/marker.ts';
import { CliError, usageError } from './errors.ts';
import { parseOptions } from './options.ts';
import { PartOptions, partRequest } from './retrieve-part.ts';

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
  const ambient = sessionFromEnv(env);
  // Inside an agent's shell the session is the shell's own: a --session naming another one is a mix-up (a retrieve
  // line copied from another session's notes), refused rather than answered from that session.
  if (options.session !== undefined && ambient !== null && options.session !== ambient) {
    throw new CliError(`tokenless retrieve: --session ${options.session} is not this shell's session (${ambient}); markers are answered in the session that was shown them`);
  }
  const sessionId = options.session ?? ambient;
  const runtime = new Runtime(loadConfig());
  try {
    const outcome = retrieveBytes(runtime, marker, { sessionId, visibleMarkers: [], anySession: options.anySession === true });
    if (!outcome.ok) throw new CliError(`tokenless retrieve: ${outcome.reason}`);
    const key = parseMarker(marker) ?? '';
    if (part === null) {
      process.stdout.write(outcome.bytes);
      // A person's --any-session is no agent turn; an agent's retrieval is recorded and breaks the loop.
    if (options.anySession !== true && sessionId !== null) recordRetrievalTurn(runtime, sessionId, key, 'whole', outcome.bytes);
      return;
    }
    const text = exactUtf8(outcome.bytes);
    if (text === null) throw new CliError('tokenless retrieve: the original is not UTF-8 text; retrieve it whole (no --lines, --grep or --search)');
    let shown;
    try {
      shown = selectPart(text, part, `tokenless retrieve ${markerId(key)}`);
    } catch (error) {
      if (error instanceof PartRefused) throw new CliError(`tokenless retrieve: ${error.message}`);
      throw error;
    }
    process.stdout.write(shown.text);
    process.stderr.write(`${shown.note}\n`);
    if (options.anySession !== true && sessionId !== null) recordRetrievalTurn(runtime, sessionId, key, 'targeted', Buffer.from(shown.text, 'utf8'));
  } finally {
    runtime.close();
  }
}

export const ANY_SESSION_REFUSED =
  'tokenless retrieve: --any-session needs a person at a terminal (stdin and stdout a TTY); an agent\'s shell has none, so retrieve there by the session that was shown the marker';

/**
 * `--any-session` skips the session check, so an agent's ordinary shell must not pass it: Claude Code's Bash tool (and
 * any agent that captures output) gives the command a pipe, not a terminal; a person at a terminal has both ends a
 * TTY. This guards against a mix-up, not against intent: a program that makes a pseudo-terminal (`script`) passes
 * it, as anything running as the user can read the stash directly (README, Security).
 */
function personAtTerminal(): boolean {
  return process.stdin.isTTY === true && process.stdout.isTTY === true;
}
