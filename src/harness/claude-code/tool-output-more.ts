/**
 * PostToolUse slots of the tools beyond Bash, Grep and Read: Glob listings, WebFetch results and MCP tool results.
 * Each shape was checked against the real client (2.1.332): Glob takes `filenames` (joined with newlines for the
 * model, FINDINGS.md §4); an MCP tool's replacement must be a string (a content-block array reaches the model as its
 * JSON text, observed), and the model then sees that string as the result.
 */
import type { ToolSlot } from './tool-slot.ts';
import { GlobResponse, McpTextResponse, WebFetchResponse, type PostToolUseInput } from './schemas.ts';

export const MCP_TOOL_PREFIX = 'mcp__';

export function globSlot(input: PostToolUseInput): ToolSlot | string {
  const parsed = GlobResponse.safeParse(input.tool_response);
  if (!parsed.success) return 'Glob response has an unexpected shape';
  const response = parsed.data;
  if (response.filenames.some((name) => name.includes('\n'))) return 'a file name holds a newline';
  return {
    text: response.filenames.join('\n'),
    origin: 'api_response',
    resultKind: 'tool',
    // One entry per line of the view, so the client's newline join prints it exactly.
    rebuild: (text) => ({ ...response, filenames: text.split('\n') }),
  };
}

export function webFetchSlot(input: PostToolUseInput): ToolSlot | string {
  const parsed = WebFetchResponse.safeParse(input.tool_response);
  if (!parsed.success) return 'WebFetch response has an unexpected shape';
  const response = parsed.data;
  return { text: response.result, origin: 'api_response', resultKind: 'tool', rebuild: (text) => ({ ...response, result: text }) };
}

/** Only a result of one text block (or a plain string) is taken: images and several blocks keep their structure. */
export function mcpSlot(input: PostToolUseInput): ToolSlot | string {
  const parsed = McpTextResponse.safeParse(input.tool_response);
  if (!parsed.success) return 'MCP result is not a single text block';
  const text = typeof parsed.data === 'string' ? parsed.data : parsed.data[0].text;
  return { text, origin: 'api_response', resultKind: 'tool', rebuild: (view) => view };
}
