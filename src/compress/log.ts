import { cleanTerminalText } from '../reduce/terminal.ts';
import type { Compressor } from './types.ts';
import { withWholeOriginal } from './view.ts';

/** Words that mark a line the agent must see as printed: errors, warnings, failures. */
const IMPORTANT = /error|warn|fatal|fail|panic|exception|traceback|denied|not found|cannot|abort|critical|assert/i;

/** Fewest lines a run of "same but for numbers" lines must have before it is folded to first, count, last. */
const MIN_SIMILAR_RUN = 4;

/**
 * Operation `ansi_strip`, retrievable: escape sequences and overwritten progress states carry nothing the model can
 * use, but they cannot be put back, so the original is stashed (a view is lossless only when it can be inverted).
 */
export const cleanLog: Compressor = (input) => {
  const cleaned = cleanTerminalText(input.content);
  return cleaned === input.content ? null : withWholeOriginal(input.content, cleaned, ['ansi_strip'], 'colour and progress redraws removed');
};

/**
 * What varies between lines of one log template: timestamps (ISO, Apache/nginx, syslog), UUIDs, IPv4 addresses
 * with ports, long hex ids, and any other digit run. One alternation, so masking a line is one linear pass.
 */
const VARIABLE = new RegExp(
  [
    String.raw`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?`,
    String.raw`\d{1,2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2}(?: [+-]\d{4})?`,
    String.raw`\b[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}\b`,
    String.raw`\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b`,
    String.raw`\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b`,
    String.raw`\b(?:0x)?(?=[0-9a-fA-F]*\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{6,}\b`,
    String.raw`\d+`,
  ].join('|'),
  'g',
);

/** A line with every variable part replaced, so lines of one template compare equal. */
export function logTemplate(line: string): string {
  return line.replace(VARIABLE, '#');
}

/** An HTTP access-log line answered with a 5xx status: a server error the agent must see. */
const SERVER_ERROR_STATUS = /" 5\d\d /;
const STACK_LINE = /^\s+at |^\s*File ".+", line \d+|^Caused by:|^\s+\.\.\. \d+ more|^\s*#\d+ 0x/;

/** Lines that are never folded: every error, warning, exception and stack line stays as printed. */
export function isImportantLogLine(line: string): boolean {
  return IMPORTANT.test(line) || STACK_LINE.test(line) || SERVER_ERROR_STATUS.test(line);
}

/**
 * A looser template for lines that name a different thing each (`status installed libfoo:amd64 1.2-1`,
 * `GET /static/app.js`): beyond the variable parts, every word that is not plain letters (a path, a package, a
 * version, a quoted agent string) is a slot.
 */
export function looseLogTemplate(line: string): string {
  return logTemplate(line)
    .split(/(\s+)/)
    .map((word) => (word.trim() === '' || /^[A-Za-z]+[,.;:!?]?$/.test(word) || /^[^\w#]+$/.test(word) ? word : '*'))
    .join('');
}

/** Longest block of lines that repeats as a unit (a page load and its assets; dpkg's configure/unpacked/installed). */
const MAX_PERIOD = 4;
/** A block must repeat this often before it is folded. */
const MIN_BLOCK_REPEATS = 3;

/**
 * Folds consecutive repeats; returns the folded lines and how many input lines were folded away. Identical lines
 * become `line (×N)`; runs of lines (or of blocks of up to four lines) of one template keep their first and last
 * line or block around a count, exact templates tried before loose ones. Blank and important lines never fold.
 */
export function foldLines(lines: readonly string[]): { lines: string[]; folded: number } {
  const out: string[] = [];
  let folded = 0;
  const foldable = lines.map((line) => line.trim() !== '' && !isImportantLogLine(line));
  const exact = lines.map((line, i) => (foldable[i] ? logTemplate(line) : null));
  const loose = lines.map((line, i) => (foldable[i] ? looseLogTemplate(line) : null));
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (!foldable[i]) {
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
    const run = longer(repeatedBlock(exact, i), repeatedBlock(loose, i));
    if (run !== null) {
      const { period, repeats } = run;
      const end = i + period * repeats;
      out.push(...lines.slice(i, i + period), `… ${(repeats - 2) * period} similar lines …`, ...lines.slice(end - period, end));
      folded += (repeats - 2) * period;
      i = end;
      continue;
    }
    out.push(line);
    i++;
  }
  return { lines: out, folded };
}

interface Run {
  readonly period: number;
  readonly repeats: number;
}

/** The run covering more lines; on a tie the first (exact templates before loose, shorter blocks before longer). */
function longer(a: Run | null, b: Run | null): Run | null {
  if (a === null || b === null) return a ?? b;
  return b.period * b.repeats > a.period * a.repeats ? b : a;
}

/** The block starting at `start` whose templates repeat back to back over the most lines, if enough to fold. */
function repeatedBlock(templates: readonly (string | null)[], start: number): Run | null {
  let best: Run | null = null;
  for (let period = 1; period <= MAX_PERIOD; period++) {
    const block = templates.slice(start, start + period);
    if (block.length < period || block.some((t) => t === null)) break;
    if (period > 1 && block.every((t) => t === block[0])) continue;
    let repeats = 1;
    for (;;) {
      const at = start + repeats * period;
      let k = 0;
      while (k < period && templates[at + k] === block[k]) k++;
      if (k < period) break;
      repeats++;
    }
    const needed = period === 1 ? MIN_SIMILAR_RUN : MIN_BLOCK_REPEATS;
    if (repeats >= needed) best = longer(best, { period, repeats });
  }
  return best;
}

/**
 * Operation `log_fold` (after `ansi_strip` when that applied), retrievable: identical consecutive lines become one
 * line with ×N; runs of lines of one template (differing only in timestamps, ids, numbers, addresses) keep their
 * first and last line around a count; error, warning and stack lines are never folded. The whole original is
 * stashed and named in a last line.
 */
export const foldLog: Compressor = (input) => {
  const cleaned = cleanTerminalText(input.content);
  const endsWithNewline = cleaned.endsWith('\n');
  const body = endsWithNewline ? cleaned.slice(0, -1) : cleaned;
  const { lines, folded } = foldLines(body.split('\n'));
  if (folded === 0) return null;
  const operations = cleaned === input.content ? ['log_fold'] : ['ansi_strip', 'log_fold'];
  return withWholeOriginal(input.content, `${lines.join('\n')}\n`, operations, `${folded} repeated lines folded`);
};
