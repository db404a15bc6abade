/**
 * The Pi extension `syt init --harness pi` writes: one ES module, no imports but Node's, loaded by Pi 0.73.1 (through
 * jiti) from `.pi/extensions/` or `~/.pi/agent/extensions/`. It handles `tool_result` and `session_start`, never
 * `tool_call`: Pi has no permission rules of its own, the only gates are other extensions' `tool_call` handlers, they
 * run in load order and each sees the command as the handlers before it left it (docs/agents/pi.md), and that order is
 * not ours to choose. A rewrite there could make a gate loaded after us miss what it blocks. After the call, every gate
 * has decided on what the model asked for; the extension only replaces the result the model is sent with the view
 * `tokenless hook post_tool` returns (stash and retrieve marker included), and only when the engine applied one.
 * Output under PI_VIEW_MIN_BYTES never leaves Pi's process: that path is a few property reads and a length check.
 */
import { DEFAULT_VIEW_MIN_BYTES } from '../../config/view-threshold.ts';
import { POST_TOOL_CALL_SOURCE } from '../plugin-post-tool-call.ts';

/** Below this many bytes of output no process is started: `tokenless run`'s own view threshold. */
export const PI_VIEW_MIN_BYTES = DEFAULT_VIEW_MIN_BYTES;

/** Pi keeps the whole output of a long command in a file of its own; past this size the engine is not asked. */
export const PI_MAX_FULL_OUTPUT_BYTES = 8 * 1024 * 1024;

/** The first line of every extension file we write: how install, uninstall and doctor know the file is ours. */
export const EXTENSION_MARKER = '// save-your-tokens Pi extension (written by `syt init --harness pi`; edits are overwritten)';

export const EXTENSION_FILE = 'save-your-tokens.js';

export const PI_AGENT_ID = 'pi';

/** The extension's text for our binary (absolute and shell-quoted, run through /bin/sh). */
export function extensionSource(wrapperCommand: string): string {
  return `${EXTENSION_MARKER}
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';

const HOOK = ${JSON.stringify(`${wrapperCommand} hook post_tool`)};
const WRAPPER = ${JSON.stringify(wrapperCommand)};
const MIN_BYTES = ${PI_VIEW_MIN_BYTES};
const MAX_FULL_BYTES = ${PI_MAX_FULL_OUTPUT_BYTES};
const TIMEOUT_MS = 30000;
// Pi's bash tool ends the text of a command that exited non-zero with this line (an error result).
const EXIT_STATUS = /\\n\\nCommand exited with code \\d+$/;

// The output as the command printed it, and the exit line Pi added; null when this is no result we view (aborted,
// timed out, not text, or cut by Pi with no full copy we can read).
function commandOutput(event) {
  const content = event.content;
  if (!Array.isArray(content) || content.length !== 1 || content[0]?.type !== 'text' || typeof content[0].text !== 'string') return null;
  let text = content[0].text;
  let status = '';
  if (event.isError === true) {
    const match = EXIT_STATUS.exec(text);
    if (match === null) return null;
    status = match[0];
    text = text.slice(0, match.index);
  }
  const details = event.details;
  if (details?.truncation?.truncated === true) {
    // Pi showed the tail only and wrote every byte to fullOutputPath: the view is made from all of it.
    const path = details.fullOutputPath;
    if (typeof path !== 'string') return null;
    try {
      if (statSync(path).size > MAX_FULL_BYTES) return null;
      text = readFileSync(path, 'utf8');
    } catch {
      return null;
    }
  }
  return { text, status, fullOutputPath: typeof details?.fullOutputPath === 'string' ? details.fullOutputPath : null };
}

function isRetrieve(command) {
  return command.includes(WRAPPER + ' retrieve') || /(^|[\\s;&|])(tokenless|syt) retrieve /.test(command);
}

${POST_TOOL_CALL_SOURCE}

export default function saveYourTokens(pi) {
  // A retrieve the model runs through bash is authorised by the session that was shown the marker: Pi's bash tool
  // hands its own environment to every command it runs.
  pi.on('session_start', (_event, ctx) => {
    const id = ctx.sessionManager?.getSessionId?.();
    if (typeof id === 'string' && id !== '') process.env.TOKENLESS_SESSION_ID = id;
  });
  pi.on('tool_result', async (event, ctx) => {
    if (event.toolName !== 'bash') return undefined;
    const output = commandOutput(event);
    if (output === null || output.text.length < MIN_BYTES / 3 || Buffer.byteLength(output.text, 'utf8') < MIN_BYTES) return undefined;
    const command = typeof event.input?.command === 'string' ? event.input.command : '';
    // A retrieve prints what the model asked for in full: never viewed again.
    if (isRetrieve(command)) return undefined;
    const session = ctx.sessionManager?.getSessionId?.() ?? process.env.TOKENLESS_SESSION_ID ?? 'pi';
    const answer = await postTool(
      {
        protocol_version: 2,
        operation: 'post_tool',
        attribution: { agent_id: ${JSON.stringify(PI_AGENT_ID)}, session_id: String(session), tool_use_id: String(event.toolCallId) },
        input: { tool_name: 'bash', status: 'success', origin: 'command_output', content: output.text, command },
      },
      ctx.signal,
    );
    const result = answer?.result;
    if (result?.disposition !== 'applied' || typeof result.output !== 'string') return undefined;
    // The exit line stays, so does isError: the model still learns the command failed and with which code. Pi's
    // note that it cut the output no longer holds; its file of the full output is still named.
    return {
      content: [{ type: 'text', text: result.output + output.status }],
      ...(output.fullOutputPath === null ? {} : { details: { fullOutputPath: output.fullOutputPath } }),
    };
  });
}
`;
}
