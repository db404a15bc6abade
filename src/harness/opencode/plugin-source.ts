/**
 * The OpenCode plugin `syt init --harness opencode` writes: one ES module, no imports but Node's, loaded by OpenCode
 * 1.18.33 from `.opencode/plugins/` or `~/.config/opencode/plugins/`. It registers `tool.execute.after` and `shell.env` (the session id a retrieve is authorised by), never `tool.execute.before`: OpenCode
 * evaluates its permission rules on the command as `tool.execute.before` left it (docs/agents/opencode.md), so a
 * rewrite would make the person's allowlist stop matching, or a rule for our wrapper allow more. After the call, the
 * rules have already decided on what the model asked for; the plugin only replaces the output the model is sent, with
 * the view `tokenless hook post_tool` returns (stash and retrieve marker included), and only when the engine applied
 * one. Output under DEFAULT_VIEW_MIN_BYTES never leaves OpenCode's process: that path is one string length check.
 */
import { DEFAULT_VIEW_MIN_BYTES } from '../../config/view-threshold.ts';
import { POST_TOOL_CALL_SOURCE } from '../plugin-post-tool-call.ts';

/** The first line of every plugin file we write: how install, uninstall and doctor know the file is ours. */
export const PLUGIN_MARKER = '// save-your-tokens OpenCode plugin (written by `syt init --harness opencode`; edits are overwritten)';

export const PLUGIN_FILE = 'save-your-tokens.js';

export const OPENCODE_AGENT_ID = 'opencode';

/** The plugin's text for our binary (absolute and shell-quoted, run through /bin/sh). */
export function pluginSource(wrapperCommand: string): string {
  return `${PLUGIN_MARKER}
import { spawn } from 'node:child_process';

const HOOK = ${JSON.stringify(`${wrapperCommand} hook post_tool`)};
const WRAPPER = ${JSON.stringify(wrapperCommand)};
const MIN_BYTES = ${DEFAULT_VIEW_MIN_BYTES};
const TIMEOUT_MS = 30000;

${POST_TOOL_CALL_SOURCE}

export const SaveYourTokens = async () => ({
  // A retrieve the model runs through bash is authorised by the session that was shown the marker.
  'shell.env': async (input, output) => {
    if (input.sessionID !== undefined) output.env.TOKENLESS_SESSION_ID = String(input.sessionID);
  },
  'tool.execute.after': async (input, output) => {
    if (input.tool !== 'bash' || typeof output.output !== 'string') return;
    if (output.output.length < MIN_BYTES / 3 || Buffer.byteLength(output.output, 'utf8') < MIN_BYTES) return;
    const command = typeof input.args?.command === 'string' ? input.args.command : '';
    const retrieve = command.includes(WRAPPER + ' retrieve') || /(^|[\\s;&|])(tokenless|syt) retrieve /.test(command);
    // OpenCode 1.18.33 reports a bash call's exit code only in metadata.exit (the model is sent the output alone): a
    // call that did not exit 0, or whose code is missing, is a failure to the engine, which never views one.
    const status = output.metadata?.exit === 0 ? 'success' : 'error';
    const answer = await postTool({
      protocol_version: 2,
      operation: 'post_tool',
      attribution: { agent_id: ${JSON.stringify(OPENCODE_AGENT_ID)}, session_id: String(input.sessionID), tool_use_id: String(input.callID) },
      input: { tool_name: 'bash', status, origin: 'command_output', content: output.output, result_kind: retrieve ? 'retrieve' : 'tool', command },
    });
    const result = answer?.result;
    if (result?.disposition === 'applied' && typeof result.output === 'string') output.output = result.output;
  },
});
`;
}
