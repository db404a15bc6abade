import type { Candidate } from '../reduce/candidate.ts';

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

export interface CompressOptions {
  /** CONTRACTS.md: on unless TOKENLESS_SEARCH_PATH_SHARING_ENABLED says otherwise. */
  readonly searchPathSharing: boolean;
}

/** A content compressor: pure, returns a candidate or null; the runtime alone arbitrates and stashes. */
export type Compressor = (input: CompressInput, options: CompressOptions) => Candidate | null;
