import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import * as z from 'zod/mini';
import { chunkDocument, CHUNKER_DEFAULTS } from '../src/context/chunker.ts';
import { CliError } from './shared/errors.ts';
import { numberOption, parseOptions } from './shared/options.ts';
import { print } from './shared/context-io.ts';

/** A chunk's budget as typed: a whole number of tokens, 1 or more (0 would ask for chunks that cannot hold a word). */
const maxTokensOption = z.string().check(z.refine((value) => /^\s*\d+\s*$/.test(value) && Number(value) >= 1, 'a whole number of tokens, 1 or more'));

const ChunkOptions = z.object({ maxTokens: z.optional(maxTokensOption), prefix: z.optional(z.string()), out: z.optional(z.string()), json: z.optional(z.boolean()) });

/** `syt chunk FILE`: splits a document into chunk JSON files (or prints them). */
export function chunkCommand(file: string, raw: unknown): void {
  const options = parseOptions(ChunkOptions, raw, 'chunk');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const chunks = chunkDocument(text, {
    ...CHUNKER_DEFAULTS,
    maxTokens: numberOption(options.maxTokens, CHUNKER_DEFAULTS.maxTokens),
    idPrefix: options.prefix ?? (basename(file, extname(file)).toLowerCase().replace(/[^a-z0-9]+/g, '-') || 'doc'),
  });
  if (options.out !== undefined) {
    mkdirSync(options.out, { recursive: true });
    for (const chunk of chunks) writeFileSync(join(options.out, `${chunk.id}.json`), `${JSON.stringify(chunk, null, 2)}\n`);
  }
  if (options.json === true) print(JSON.stringify({ file, chunks: options.out === undefined ? chunks : chunks.map((c) => c.id) }));
  else print(chunks.map((c) => `${c.id}\t${c.triggers.join(',')}`).join('\n'));
}
