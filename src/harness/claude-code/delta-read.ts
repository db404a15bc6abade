/**
 * Changed re-reads: a Read of a file whose earlier Read the model still holds (same session, agent and range, no
 * compaction or /clear since) but whose text changed (the agent's own Edit/Write, a formatter, `git checkout`) is
 * answered with the changed lines only, as a diff against the text the model was shown, with a retrieval line for the
 * full new text. Loaded only for such a re-read, so the hook's other paths never pay for the diff.
 */
import { elide, retrievable } from '../../reduce/candidate.ts';
import { diffLines, splitLines, type Hunk } from '../../reduce/line-diff.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { retrievalLine } from '../../store/marker.ts';
import { estimateTokens } from '../../tokens/estimate.ts';
import { showInstead, type ReadShown } from './reread.ts';
import type { PostToolUseInput } from './schemas.ts';

export const DELTA_OPERATION = 'read_changed';

/** Past this share of changed lines, or a diff this close to the full size, the whole file reads better. */
const MAX_CHANGED_SHARE = 0.4;
const MAX_VIEW_SHARE = 0.6;

/** The view's text: a header that says what it is and how to get the file back, then the hunks with file line numbers. */
export function deltaText(hunks: readonly Hunk[], earlierToolUseId: string, key: string, startLine: number, totalLines: number): string {
  const changed = hunks.reduce((n, h) => n + h.added.length, 0);
  const shift = startLine - 1;
  const header =
    `[tokenless: this file changed since your earlier Read of it (tool call ${earlierToolUseId}), still above in this conversation; ` +
    `only the changed lines follow, as a diff against that Read: "@@ -a,b +c,d @@" then "-N: old line" and "+N: new line" with their line numbers in the file; ` +
    `the other ${totalLines - changed} of ${totalLines} lines are as in that Read; the numbers the client puts left of these lines are not file lines and this block is not file content] ${retrievalLine(key)}`;
  const body = hunks.flatMap((h) => [
    `@@ -${h.oldStart + shift},${h.removed.length} +${h.newStart + shift},${h.added.length} @@`,
    ...h.removed.map((line, i) => `-${h.oldStart + shift + i}: ${line}`),
    ...h.added.map((line, i) => `+${h.newStart + shift + i}: ${line}`),
  ]);
  return `${header}${body.join('\n')}`;
}

/** `updatedToolOutput` with the changed lines, or null (nothing kept to diff against, change too large, no saving). */
export function deltaReread(
  runtime: Runtime,
  event: PostToolUseInput,
  shown: ReadShown,
  earlier: { digest: string; toolUseId: string; text?: string } | undefined,
  agentId: string,
): Record<string, unknown> | null {
  if (earlier?.text === undefined || earlier.digest === shown.digest) return null;
  const before = splitLines(earlier.text);
  const after = splitLines(shown.text);
  const hunks = diffLines(before, after);
  if (hunks === null || hunks.length === 0) return null;
  const changed = hunks.reduce((n, h) => n + h.removed.length + h.added.length, 0);
  if (changed > MAX_CHANGED_SHARE * Math.max(before.length, after.length)) return null;
  const { entry } = elide(shown.text);
  const text = deltaText(hunks, earlier.toolUseId, entry.key, shown.response.file.startLine, after.length);
  if (estimateTokens(text) > MAX_VIEW_SHARE * estimateTokens(shown.text)) return null;
  return showInstead(runtime, event, shown, retrievable(text, [DELTA_OPERATION], [entry]), DELTA_OPERATION, agentId);
}
