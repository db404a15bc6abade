/**
 * Minified or generated code (bundles, `.min.js`, `.min.css`): nobody reads or edits it line by line, so it is
 * shown as its size and its head. A retrievable view: the whole original is stashed.
 */
import type { Candidate } from '../reduce/candidate.ts';
import { withWholeOriginal } from './view.ts';

/** Characters of the head shown. */
const HEAD_CHARS = 600;
/** Average characters per line above which text reads as minified. */
const MIN_AVERAGE_LINE = 400;
/** Lines longer than this that hold most of the text also make it minified. */
const LONG_LINE = 2000;

/** Whether the text is machine-packed: very long lines that carry most of its bytes. */
export function looksMinified(content: string): boolean {
  if (content.length < LONG_LINE) return false;
  const lines = content.split('\n');
  if (content.length / lines.length >= MIN_AVERAGE_LINE) return true;
  const inLongLines = lines.reduce((sum, line) => (line.length > LONG_LINE ? sum + line.length : sum), 0);
  return inLongLines >= content.length * 0.8;
}

/** Operation `minified_head`; null unless the text looks minified. */
export function minifiedView(content: string): Candidate | null {
  if (!looksMinified(content)) return null;
  const lines = content.split('\n').length;
  let head = content.slice(0, HEAD_CHARS);
  const code = head.charCodeAt(head.length - 1);
  if (code >= 0xd800 && code <= 0xdbff) head = head.slice(0, -1);
  const bytes = Buffer.byteLength(content);
  const view = `[minified or generated text: ${bytes} bytes in ${lines} lines; the first ${head.length} characters:]\n${head}…\n`;
  return withWholeOriginal(content, view, ['minified_head'], 'minified text cut to its head');
}
