/**
 * TELOS FOLD for stale tool results, as pure functions over an Anthropic request's `messages`: which results may be
 * set aside, and the messages with them replaced by a marker that `tokenless retrieve` turns back into the original.
 *
 * It runs only on a request that arrives after the conversation's cache has expired (the caller decides that): the
 * whole prompt is written again then anyway, so replacing an old result costs no cache rewrite and every later
 * request reads the shorter prompt. Once folded, a result stays folded the same way in every later request (the
 * caller keeps the folds and re-applies them), so the prompt stays byte-identical from request to request.
 *
 * Never folded: a result in the last `keepTurns` user messages (the agent is still working with it), a result the
 * agent referred to since (a later assistant message quotes one of its lines: an Edit's old_string taken from a
 * Read), a result under `minChars`, anything that is not plain text (images, several blocks), and any block that
 * carries a cache_control breakpoint (the breakpoints stay exactly where the client put them).
 */
import { retrievalLine } from '../store/marker.ts';

export interface FoldOptions {
  /** The newest user messages whose results are never folded. */
  readonly keepTurns: number;
  /** Results shorter than this (characters) are never folded: the marker would save too little. */
  readonly minChars: number;
}

export const FOLD_DEFAULTS: FoldOptions = { keepTurns: 4, minChars: 2000 };

/** A fold decided once: the result's text, and the stash key its marker names. */
export interface Fold {
  readonly toolUseId: string;
  readonly text: string;
}

type Block = Record<string, unknown>;
interface Message {
  readonly role?: unknown;
  readonly content?: unknown;
}

/** Lines shorter than this are too common ("}", "return x") to say the agent quoted this result. */
const QUOTE_MIN_CHARS = 24;

/** The results of `messages` that may be folded now, oldest first; ids in `already` are skipped. */
export function foldCandidates(messages: readonly unknown[], already: ReadonlySet<string>, options: FoldOptions = FOLD_DEFAULTS): Fold[] {
  const userIndexes = messages.flatMap((m, i) => (roleOf(m) === 'user' ? [i] : []));
  const protectedFrom = userIndexes.length > options.keepTurns ? (userIndexes[userIndexes.length - options.keepTurns] ?? 0) : 0;
  if (protectedFrom === 0) return [];
  const folds: Fold[] = [];
  for (let i = 0; i < protectedFrom; i += 1) {
    const message = messages[i] as Message;
    if (roleOf(message) !== 'user' || !Array.isArray(message.content)) continue;
    for (const block of message.content as unknown[]) {
      if (!isBlock(block) || block['type'] !== 'tool_result') continue;
      const id = block['tool_use_id'];
      if (typeof id !== 'string' || already.has(id)) continue;
      const text = foldableText(block);
      if (text === null || text.length < options.minChars) continue;
      if (quotedAfter(text, messages, i)) continue;
      folds.push({ toolUseId: id, text });
    }
  }
  return folds;
}

/** The marker text a folded result becomes: what it was, and the line that prints it back exactly. */
export function foldMarker(text: string, key: string): string {
  const lines = text.split('\n').length;
  return `[syt] This tool result (${lines} lines, ${text.length} characters) was folded after a pause; the line below prints it exactly (or part: --lines A-B, --grep REGEX).\n${retrievalLine(key)}`;
}

/**
 * The messages with each folded result's text replaced by its marker, in the block shape the result had. A result
 * whose text is no longer what was folded (the client changed it) is left as it is.
 */
export function applyFolds(messages: readonly unknown[], folds: ReadonlyMap<string, { readonly text: string; readonly marker: string }>): { messages: unknown[]; folded: string[] } {
  const folded: string[] = [];
  const out = messages.map((message) => {
    if (roleOf(message) !== 'user' || !Array.isArray((message as Message).content)) return message;
    let changed = false;
    const content = ((message as Message).content as unknown[]).map((block) => {
      if (!isBlock(block) || block['type'] !== 'tool_result') return block;
      const fold = folds.get(String(block['tool_use_id']));
      if (fold === undefined || foldableText(block) !== fold.text) return block;
      changed = true;
      folded.push(String(block['tool_use_id']));
      const inner = block['content'];
      return { ...block, content: typeof inner === 'string' ? fold.marker : [{ type: 'text', text: fold.marker }] };
    });
    return changed ? { ...(message as Block), content } : message;
  });
  return { messages: out, folded };
}

/** The result's text when it is one plain string or one text block and carries no breakpoint; else null. */
function foldableText(block: Block): string | null {
  if ('cache_control' in block) return null;
  const content = block['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content) || content.length !== 1) return null;
  const only: unknown = content[0];
  if (!isBlock(only) || only['type'] !== 'text' || 'cache_control' in only || typeof only['text'] !== 'string') return null;
  return only['text'];
}

/** Whether an assistant message after index `from` quotes a line of `text`. */
function quotedAfter(text: string, messages: readonly unknown[], from: number): boolean {
  const later: unknown[] = [];
  for (let i = from + 1; i < messages.length; i += 1) if (roleOf(messages[i]) === 'assistant') later.push((messages[i] as Message).content);
  return quotes(later, text);
}

/** Whether assistant content (text, tool inputs) quotes a line of `text` (line-number prefixes of Read ignored). */
export function quotes(assistantContent: readonly unknown[], text: string): boolean {
  const later: string[] = [];
  collectStrings(assistantContent, later);
  if (later.length === 0) return false;
  const haystack = later.join('\n');
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^\s*\d+(?:\u2192|\t)/, '').trim();
    if (line.length >= QUOTE_MIN_CHARS && haystack.includes(line)) return true;
  }
  return false;
}

function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (isBlock(value)) for (const item of Object.values(value)) collectStrings(item, into);
}

function roleOf(message: unknown): unknown {
  return isBlock(message) ? message['role'] : undefined;
}

function isBlock(value: unknown): value is Block {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
