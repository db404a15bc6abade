/**
 * Read re-reads: a Read of the same file and range whose text is the same as a Read the model is still holding (same
 * session and agent, no compaction or /clear since) is answered with a one-line pointer to that earlier result,
 * instead of the same text again. Measured with the real client 2.1.332: it does not do this itself (its binary
 * carries a "File unchanged since last read" stub, but identical Reads returned the full text each time), and an
 * Edit after a pointed Read still works (test/e2e/claude-code-reread.test.ts). The text is stashed, so the pointer
 * also carries a retrieval line: recoverable like any other view.
 */
import { arbitrate } from '../../runtime/arbitrate.ts';
import { elide, retrievable, type Candidate } from '../../reduce/candidate.ts';
import { commit } from '../../runtime/commit.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { contentDigest, retrievalLine } from '../../store/marker.ts';
import type { ReadKey } from '../../store/reads.ts';
import { estimateTokens } from '../../tokens/estimate.ts';
import { ReadResponse, type PostToolUseInput } from './schemas.ts';

export const REREAD_OPERATION = 'read_unchanged';

/**
 * The pointer costs about 64 o200k tokens (its retrieval line 15 of them): below about three times that, sending the
 * model back to an earlier result saves too little to be worth it. Such reads never touch the ledger (no SQLite).
 */
const MIN_TOKENS = 200;

export interface ReadShown {
  readonly key: ReadKey;
  readonly digest: string;
  readonly text: string;
  readonly response: ReadResponse;
}

/** The Read result as the model would see it, keyed; null for other tools, non-text reads and small ones. */
export function readShown(event: PostToolUseInput): ReadShown | null {
  if (event.tool_name !== 'Read') return null;
  const parsed = ReadResponse.safeParse(event.tool_response);
  if (!parsed.success || parsed.data.type !== 'text') return null;
  const response = parsed.data;
  const text = response.file.content;
  if (estimateTokens(text) < MIN_TOKENS) return null;
  const { offset, limit, pages } = event.tool_input;
  if (pages !== undefined) return null;
  const range = `${typeof offset === 'number' ? offset : ''}:${typeof limit === 'number' ? limit : ''}`;
  const key = { sessionId: event.session_id, agent: event.agent_id ?? '', path: response.file.filePath, range };
  return { key, digest: contentDigest(text), text, response };
}

/** The pointer's text: where the same text was shown, that it is not file content, and how to get it back. */
export function pointerText(earlierToolUseId: string, key: string): string {
  return `[tokenless: same text as your earlier Read of this file and range (tool call ${earlierToolUseId}), still above in this conversation; this line is not file content] ${retrievalLine(key)}`;
}

/**
 * `updatedToolOutput` for an unchanged re-read, or null (first read, changed text, or the pointer does not pay).
 * Every outcome but a pointer leaves the caller to record or drop the read once it knows what the model saw.
 */
export function pointReread(
  runtime: Runtime,
  event: PostToolUseInput,
  shown: ReadShown,
  earlier: { digest: string; toolUseId: string } | undefined,
  agentId: string,
): Record<string, unknown> | null {
  if (earlier === undefined || earlier.digest !== shown.digest) return null;
  const { entry } = elide(shown.text);
  return showInstead(runtime, event, shown, retrievable(pointerText(earlier.toolUseId, entry.key), [REREAD_OPERATION], [entry]), REREAD_OPERATION, agentId);
}

/** A range read inside a file the model holds whole and unchanged: a pointer to those lines of that earlier Read. */
export function pointIntoWhole(
  runtime: Runtime,
  event: PostToolUseInput,
  shown: ReadShown,
  whole: { toolUseId: string; text?: string } | undefined,
  agentId: string,
): Record<string, unknown> | null {
  if (whole?.text === undefined || shown.key.range === ':') return null;
  const { startLine } = shown.response.file;
  const lines = shown.text.replace(/\n$/u, '').split('\n');
  const slice = whole.text.replace(/\n$/u, '').split('\n').slice(startLine - 1, startLine - 1 + lines.length);
  if (slice.length !== lines.length || slice.join('\n') !== lines.join('\n')) return null;
  const { entry } = elide(shown.text);
  const end = startLine + lines.length - 1;
  const text = `[tokenless: same text as lines ${startLine}-${end} of your earlier Read of this whole file (tool call ${whole.toolUseId}), unchanged and still above in this conversation; this line is not file content] ${retrievalLine(entry.key)}`;
  return showInstead(runtime, event, shown, retrievable(text, [REREAD_OPERATION], [entry]), REREAD_OPERATION, agentId);
}

/**
 * Commits a view of a Read (the pointer, a diff) if it pays, and answers it in Read's exact shape (FINDINGS.md §4):
 * the client numbers the view's lines from startLine itself, so a view carries any file line numbers in its lines.
 */
export function showInstead(runtime: Runtime, event: PostToolUseInput, shown: ReadShown, candidate: Candidate, operation: string, agentId: string): Record<string, unknown> | null {
  const adopted = arbitrate(shown.text, [candidate]);
  if (adopted === null) return null;
  const committed = commit(runtime, shown.text, adopted, {
    lifecycle: 'post_tool',
    agentId,
    sessionId: event.session_id,
    toolUseId: event.tool_use_id,
    toolName: 'Read',
    origin: 'file_content',
    contentType: operation,
  });
  if (committed.disposition !== 'applied') return null;
  const content = committed.output.replace(/\n$/u, '');
  return { ...shown.response, file: { ...shown.response.file, content, numLines: content.split('\n').length } };
}
