import * as z from 'zod/mini';
import { loadConfig } from '../src/config/config.ts';
import { retrieveBytes } from '../src/runtime/retrieve.ts';
import { Runtime } from '../src/runtime/runtime.ts';
import { parseMarker } from '../src/store/marker.ts';
import { CliError, usageError } from './errors.ts';
import { parseOptions } from './options.ts';

const Options = z.object({ session: z.optional(z.string()), anySession: z.optional(z.boolean()) });

/** Prints the original bytes exactly, nothing added; a malformed marker is exit 2, any refusal exit 1, nothing on stdout. */
export function retrieveCommand(marker: string, raw: unknown): void {
  const options = parseOptions(Options, raw, 'retrieve');
  if (parseMarker(marker) === null) throw usageError(`tokenless retrieve: ${JSON.stringify(marker)} is not a marker: expected <<tokenless:KEY>> or the bare 24-hex KEY`);
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
