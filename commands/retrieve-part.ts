/**
 * `tokenless retrieve KEY --lines A-B | --grep RE [-C N] [-i] | --search WORDS [--top N]`: which part of the original
 * to print. Malformed options are usage errors (exit 2); the selection itself is src/runtime/retrieve-part.ts.
 */
import * as z from 'zod/mini';
import { compileUserRegex, MAX_PATTERN_CHARS } from '../src/runtime/bounded-regex.ts';
import { MAX_CONTEXT, MAX_TOP, parseLineRange, type LineRange, type PartRequest } from '../src/runtime/retrieve-part.ts';
import { usageError } from './errors.ts';

export const PartOptions = {
  lines: z.optional(z.string()),
  grep: z.optional(z.string()),
  context: z.optional(z.string()),
  ignoreCase: z.optional(z.boolean()),
  search: z.optional(z.string()),
  top: z.optional(z.string()),
};

export interface PartOptionValues {
  readonly lines?: string | undefined;
  readonly grep?: string | undefined;
  readonly context?: string | undefined;
  readonly ignoreCase?: boolean | undefined;
  readonly search?: string | undefined;
  readonly top?: string | undefined;
}


/** The part asked for, or null for the whole original. */
export function partRequest(options: PartOptionValues): PartRequest | null {
  const fail = (message: string): never => {
    throw usageError(`tokenless retrieve: ${message}`);
  };
  if (options.grep !== undefined && options.search !== undefined) fail('give --grep or --search, not both');
  if (options.grep === undefined && (options.context !== undefined || options.ignoreCase === true)) fail('-C and -i go with --grep');
  if (options.search === undefined && options.top !== undefined) fail('--top goes with --search');
  const range: LineRange | null = options.lines === undefined ? null : (parseLineRange(options.lines) ?? fail(`--lines takes A, A-B or A- (1-based), not ${JSON.stringify(options.lines)}`));
  if (options.grep !== undefined) {
    const context = count(options.context ?? '0', MAX_CONTEXT) ?? fail(`-C takes 0 to ${MAX_CONTEXT}`);
    const compiled = compileUserRegex(options.grep, options.ignoreCase === true);
    if (!compiled.ok) return fail(`--grep ${compiled.reason}`);
    const pattern = compiled.regex;
    return { kind: 'grep', pattern, source: options.grep, context, range };
  }
  if (options.search !== undefined) {
    if (!/[\p{L}\p{N}]/u.test(options.search) || options.search.length > MAX_PATTERN_CHARS) fail('--search takes some words to look for');
    const top = count(options.top ?? '3', MAX_TOP) ?? fail(`--top takes 1 to ${MAX_TOP}`);
    if (top === 0) fail(`--top takes 1 to ${MAX_TOP}`);
    return { kind: 'search', query: options.search, top, range };
  }
  return range === null ? null : { kind: 'lines', range };
}

function count(text: string, max: number): number | null {
  if (!/^\d{1,3}$/.test(text.trim())) return null;
  const value = Number(text);
  return value <= max ? value : null;
}
