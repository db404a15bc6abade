/**
 * Claude Code PostToolUse: which text slot of each built-in tool's response we may shorten, under which declared
 * origin, and how to put the shorter text back in exactly the tool's own output shape (CONTRACTS.md).
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { BashResponse, GrepResponse, type PostToolUseInput } from './schemas.ts';
import { globSlot, MCP_TOOL_PREFIX, mcpSlot, webFetchSlot } from './tool-output-more.ts';
import type { ToolSlot } from './tool-slot.ts';

/** A full persisted Bash output larger than this stays as Claude Code's own preview. */
const PERSISTED_READ_CAP_BYTES = 16 * 1024 * 1024;
const READ_CHUNK_BYTES = 1024 * 1024;

/** Returns the slot to compress, or a reason why this tool result is left alone. */
export function toolSlot(input: PostToolUseInput, isOurCommand: (command: string) => 'wrapped' | 'retrieve' | 'other'): ToolSlot | string {
  switch (input.tool_name) {
    case 'Bash':
      return bashSlot(input, isOurCommand);
    case 'Grep':
      return grepSlot(input);
    case 'Read':
      // File content is what the agent edits against: the content policy gives it no compressor (src/compress/policy.ts).
      return 'Read results stay byte-exact';
    case 'Glob':
      return globSlot(input);
    case 'WebFetch':
      return webFetchSlot(input);
    default:
      return input.tool_name.startsWith(MCP_TOOL_PREFIX) ? mcpSlot(input) : `tool ${input.tool_name} has no declared contract`;
  }
}

function bashSlot(input: PostToolUseInput, isOurCommand: (command: string) => 'wrapped' | 'retrieve' | 'other'): ToolSlot | string {
  const parsed = BashResponse.safeParse(input.tool_response);
  if (!parsed.success) return 'Bash response has an unexpected shape';
  const response = parsed.data;
  if (response.isImage === true) return 'image output';
  const command = typeof input.tool_input['command'] === 'string' ? input.tool_input['command'] : '';
  const kind = isOurCommand(command);
  if (kind === 'wrapped') return 'output already filtered by tokenless run';
  let stdout = response.stdout;
  if (response.persistedOutputPath !== undefined) {
    const full = readPersisted(response.persistedOutputPath);
    if (full === null) return 'persisted output unreadable or too large';
    stdout = full;
  }
  return {
    text: stdout,
    origin: 'command_output',
    resultKind: kind === 'retrieve' ? 'retrieve' : 'tool',
    command,
    // The persisted fields are dropped so the model sees only our view, not Claude Code's preview wrapper.
    rebuild: (text) => ({
      stdout: text,
      stderr: response.stderr,
      interrupted: response.interrupted,
      isImage: response.isImage ?? false,
      noOutputExpected: response.noOutputExpected ?? false,
    }),
  };
}

function grepSlot(input: PostToolUseInput): ToolSlot | string {
  const parsed = GrepResponse.safeParse(input.tool_response);
  if (!parsed.success) return 'Grep response has an unexpected shape';
  const response = parsed.data;
  if (response.mode !== 'content' || response.content === undefined) return 'Grep output mode is not content';
  const context = ['-A', '-B', '-C', 'context'].some((flag) => input.tool_input[flag] !== undefined);
  if (context) return 'Grep with context lines is outside the search-path contract';
  return {
    text: response.content,
    origin: 'api_response',
    resultKind: 'tool',
    rebuild: (text) => ({ ...response, content: text }),
  };
}

/**
 * Reads at most the cap, whatever `stat` says (a growing file can pass a stat check and then grow without bound), and
 * only a regular file: O_NONBLOCK keeps a FIFO from blocking the open, and fstat on the open descriptor refuses FIFOs,
 * devices and sockets before a byte is read (issue 15, item 10).
 */
export function readPersisted(path: string, capBytes: number = PERSISTED_READ_CAP_BYTES): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    if (!fstatSync(fd).isFile()) return null;
    const chunks: Buffer[] = [];
    let size = 0;
    while (size <= capBytes) {
      const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, capBytes + 1 - size));
      const got = readSync(fd, chunk, 0, chunk.length, null);
      if (got === 0) return Buffer.concat(chunks, size).toString('utf8');
      chunks.push(chunk.subarray(0, got));
      size += got;
    }
    return null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
