import { elide, lossless, retrievable } from '../runtime/candidate.ts';
import type { Compressor } from './types.ts';

// CSI sequences (colours, cursor moves), OSC sequences (titles, hyperlinks) and two-byte escapes.
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/** Lines that are never folded: the agent must see every error and warning as printed. */
const IMPORTANT = /error|warn|fatal|fail|panic|exception|traceback|denied|not found|cannot|abort|critical|assert/i;

/** Fewest lines a run of "same but for numbers" lines must have before it is folded to first, count, last. */
const MIN_SIMILAR_RUN = 4;

/** Removes ANSI escapes and keeps only what a terminal finally shows of `\r`-overwritten progress lines. */
export function cleanTerminalText(text: string): string {
  const plain = text.includes('\x1b') ? text.replace(ANSI, '') : text;
  if (!plain.includes('\r')) return plain;
  return plain
    .split('\n')
    .map((line) => {
      const crlf = line.endsWith('\r');
      const body = crlf ? line.slice(0, -1) : line;
      if (!body.includes('\r')) return line;
      const segments = body.split('\r').filter((s) => s !== '');
      return (segments[segments.length - 1] ?? '') + (crlf ? '\r' : '');
    })
    .join('\n');
}

/**
 * Operation `ansi_strip`, treated as lossless (ARCHITECTURE.md: ANSI and progress cleanup the agent cannot need):
 * escape sequences and overwritten progress states carry no content the model can use.
 */
export const cleanLog: Compressor = (input) => {
  const cleaned = cleanTerminalText(input.content);
  return cleaned === input.content ? null : lossless(cleaned, ['ansi_strip']);
};

/** A line with every digit run replaced, so timestamps, counters and durations compare equal. */
function skeleton(line: string): string {
  return line.replace(/\d+/g, '#');
}

/** Folds consecutive repeats; returns the folded lines and how many input lines were folded away. */
export function foldLines(lines: readonly string[]): { lines: string[]; folded: number } {
  const out: string[] = [];
  let folded = 0;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (line.trim() === '' || IMPORTANT.test(line)) {
      out.push(line);
      i++;
      continue;
    }
    let same = i + 1;
    while (same < lines.length && lines[same] === line) same++;
    if (same - i >= 2) {
      out.push(`${line} (×${same - i})`);
      folded += same - i - 1;
      i = same;
      continue;
    }
    const shape = skeleton(line);
    let similar = i + 1;
    while (similar < lines.length && !IMPORTANT.test(lines[similar] as string) && skeleton(lines[similar] as string) === shape) {
      similar++;
    }
    const run = similar - i;
    if (run >= MIN_SIMILAR_RUN) {
      out.push(line, `… ${run - 2} similar lines …`, lines[similar - 1] as string);
      folded += run - 2;
      i = similar;
      continue;
    }
    out.push(line);
    i++;
  }
  return { lines: out, folded };
}

/**
 * Operation `log_fold` (after `ansi_strip` when that applied), retrievable: identical consecutive lines become one
 * line with ×N, runs differing only in numbers keep first and last; error and warning lines are never folded. The
 * whole original is stashed and named in a last line.
 */
export const foldLog: Compressor = (input) => {
  const cleaned = cleanTerminalText(input.content);
  const endsWithNewline = cleaned.endsWith('\n');
  const body = endsWithNewline ? cleaned.slice(0, -1) : cleaned;
  const { lines, folded } = foldLines(body.split('\n'));
  if (folded === 0) return null;
  const { entry, marker } = elide(input.content);
  const footer = `[tokenless: ${folded} repeated lines folded; full output ${marker}]`;
  const operations = cleaned === input.content ? ['log_fold'] : ['ansi_strip', 'log_fold'];
  return retrievable(`${lines.join('\n')}\n${footer}${endsWithNewline ? '\n' : ''}`, operations, [entry]);
};
