import { estimateTokens } from '../../../src/tokens/estimate.ts';
import { findFilter } from '../../../src/filters/registry.ts';
import type { CommandOutput } from '../../../src/filters/types.ts';
import type { CorpusCase } from '../../helpers/fixtures.ts';
import { DEFAULT_CONTEXT, streamViews, type StreamViews } from '../../helpers/streams.ts';

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
  readonly view: StreamViews | null;
  readonly before: number;
  readonly after: number;
  readonly beforeBytes: number;
  readonly afterBytes: number;
}

export function measure(c: CorpusCase): Measured {
  const output = outputOf(c);
  const filter = output === null ? null : findFilter(output.argv);
  const candidate = output === null || filter === null ? null : filter.apply(output, DEFAULT_CONTEXT);
  const before = estimateTokens(c.stdout) + estimateTokens(c.stderr);
  const beforeBytes = Buffer.byteLength(c.stdout) + Buffer.byteLength(c.stderr);
  // What the agent sees: the candidate's text, retrieval lines included.
  const after = candidate === null ? before : estimateTokens(candidate.stdout) + estimateTokens(candidate.stderr);
  const afterBytes = candidate === null ? beforeBytes : Buffer.byteLength(candidate.output);
  return { id: c.id, category: c.category, filter: filter?.name ?? null, view: streamViews(candidate, c), before, after, beforeBytes, afterBytes };
}
