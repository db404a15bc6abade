import type { Candidate } from '../reduce/candidate.ts';
import type { ReduceContext } from '../reduce/context.ts';

/** What produced a tool result; declared by the adapter's tool contract, never guessed from the text. */
export type ContentOrigin = 'command_output' | 'file_content' | 'api_response';

export type ContentType =
  | 'json'
  | 'search_results'
  | 'build_log'
  | 'stack_trace'
  | 'diff'
  | 'html'
  | 'tabular'
  | 'source_code'
  | 'plain_text';

export interface CompressInput {
  readonly content: string;
  readonly origin: ContentOrigin;
  readonly toolName: string;
  readonly contentType: ContentType;
}

/** A content compressor: pure, returns a candidate or null; the runtime alone arbitrates and stashes. It gets the
 * same context as a command filter. */
export type Compressor = (input: CompressInput, context: ReduceContext) => Candidate | null;
