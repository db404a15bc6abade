// The slot type on its own, so tool-output.ts (Bash, Grep) and tool-output-more.ts (Glob, WebFetch, MCP) both
// import it and neither imports the other back.
import type { ContentOrigin } from '../../compress/types.ts';

export interface ToolSlot {
  readonly text: string;
  readonly origin: ContentOrigin;
  readonly resultKind: 'tool' | 'retrieve';
  /** The Bash command line that printed the text, for the content policy. */
  readonly command?: string;
  /** Builds `updatedToolOutput` around the new text: the tool's own output object, or a string for an MCP tool. */
  rebuild(text: string): Record<string, unknown> | string;
}
