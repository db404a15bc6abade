import type { Candidate } from '../reduce/candidate.ts';
import type { ReduceContext } from '../reduce/context.ts';
import { compactDiff } from './diff.ts';
import { extractHtml } from './html.ts';
import { compactJson, truncateJson } from './json.ts';
import { cleanLog, foldLog } from './log.ts';
import { dependencyFold, sharedDependencyFold } from './listing-fold.ts';
import { searchPathSharing } from './search-paths.ts';
import { compactTable } from './table.ts';
import { toonJson } from './toon.ts';
import type { CompressInput, Compressor, ContentType } from './types.ts';

/**
 * Which compressors may run on each content type. Source code and plain text get at most terminal cleanup: code
 * is never summarised, and prose has no structure to exploit without losing words.
 */
const BY_TYPE: Readonly<Record<ContentType, readonly Compressor[]>> = {
  json: [compactJson, toonJson, truncateJson],
  search_results: [],
  build_log: [cleanLog, foldLog],
  stack_trace: [cleanLog, foldLog],
  diff: [compactDiff],
  html: [extractHtml],
  tabular: [compactTable],
  source_code: [],
  plain_text: [cleanLog],
};

/** The exact tool name whose hits are all kept, except those in dependency trees (`dependency_fold`). */
const GREP_TOOL = 'Grep';

/**
 * Every candidate the content compressors propose for one post_tool result, in no particular order: the runtime
 * arbitrates (strictly shorter in bytes and tokens, shortest wins, ties go to lossless).
 *
 * - `file_content` gets none: file text is what the agent edits against, so even a lossless re-spelling (compact
 *   JSON, CSV quoting) would make its later exact-match edits fail.
 * - Search-path sharing runs here only for `api_response`; for command output the search filter calls
 *   `encodeSearchPaths` itself, so a listing another filter handles is not encoded twice.
 * - `Grep` gets search-path sharing and, when hits lie in dependency trees, their fold (one line per tree, the
 *   rest verbatim, the original stashed) and nothing else.
 */
export function candidatesFor(input: CompressInput, context: ReduceContext): Candidate[] {
  if (input.origin === 'file_content') return [];
  const compressors: Compressor[] = [];
  if (input.contentType === 'search_results' && input.origin === 'api_response') compressors.push(searchPathSharing, dependencyFold, sharedDependencyFold);
  if (input.toolName !== GREP_TOOL) compressors.push(...BY_TYPE[input.contentType]);
  const candidates: Candidate[] = [];
  for (const compress of compressors) {
    const candidate = safely(compress, input, context);
    if (candidate !== null && candidate.output !== input.content) candidates.push(candidate);
  }
  return candidates;
}

/** A compressor bug must cost savings, never the tool result: a throw counts as "no candidate". */
function safely(compress: Compressor, input: CompressInput, context: ReduceContext): Candidate | null {
  try {
    return compress(input, context);
  } catch {
    return null;
  }
}
