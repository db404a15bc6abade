import { estimateTokens } from '../../../src/tokens/estimate.ts';
import { findFilter } from '../../../src/filters/registry.ts';
import { MARKER_BYTES, MARKER_TOKENS } from '../../../src/filters/text.ts';
import type { CommandOutput, FilterView } from '../../../src/filters/types.ts';
import type { CorpusCase } from '../../helpers/fixtures.ts';

/** Splits a command line into words (single/double quotes, backslash escapes); enough for the corpus commands. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? '';
    if (quote !== null) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && /["\\$`]/.test(line[i + 1] ?? '')) word += line[++i] ?? '';
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\') {
      word += line[++i] ?? '';
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** The argv whose filter sees a case's output: the producer of a pipe, the last command of an `&&` chain (the way
 * the rewriter wraps segments). Commands with `;`, `&` or loops are not wrapped: null. */
export function argvForCase(command: string): string[] | null {
  if (/[;`]|&(?!&)|\bfor\b/.test(command.replace(/&&/g, ''))) return null;
  const chain = command.split('&&');
  const last = chain[chain.length - 1] ?? '';
  const producer = last.split('|')[0] ?? '';
  const words = shellWords(producer.trim());
  return words.length === 0 ? null : words;
}

export function outputOf(c: CorpusCase): CommandOutput | null {
  const argv = argvForCase(c.command);
  return argv === null ? null : { argv, stdout: c.stdout, stderr: c.stderr, exitCode: c.exitCode };
}

export interface Measured {
  readonly id: string;
  readonly category: string;
  readonly filter: string | null;
  readonly view: FilterView | null;
  readonly before: number;
  readonly after: number;
  readonly beforeBytes: number;
  readonly afterBytes: number;
}

/** Tokens the agent sees for a view, counting the marker line the runtime appends to each lossy stream. */
export function shownCost(view: FilterView): { tokens: number; bytes: number } {
  let tokens = 0;
  let bytes = 0;
  for (const stream of [view.stdout, view.stderr]) {
    tokens += estimateTokens(stream.text) + (stream.lossy ? MARKER_TOKENS : 0);
    bytes += Buffer.byteLength(stream.text) + (stream.lossy ? MARKER_BYTES : 0);
  }
  return { tokens, bytes };
}

export function measure(c: CorpusCase): Measured {
  const output = outputOf(c);
  const filter = output === null ? null : findFilter(output.argv);
  const view = output === null || filter === null ? null : filter.apply(output);
  const before = estimateTokens(c.stdout) + estimateTokens(c.stderr);
  const beforeBytes = Buffer.byteLength(c.stdout) + Buffer.byteLength(c.stderr);
  const cost = view === null ? { tokens: before, bytes: beforeBytes } : shownCost(view);
  return { id: c.id, category: c.category, filter: filter?.name ?? null, view, before, after: cost.tokens, beforeBytes, afterBytes: cost.bytes };
}
