import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import * as z from 'zod/mini';
import { chunkDocument, CHUNKER_DEFAULTS } from '../../src/context/chunker.ts';
import { assemble, assembleByRelevance, SELECT_DEFAULTS } from '../../src/context/select.ts';
import { CliError } from '../errors.ts';
import { nonNegativeOption, parseOptions } from '../options.ts';
import { loadChunks, print } from './io.ts';

/** The options were checked by their schema (nonNegativeOption); absent means the default. */
const numberOption = (raw: string | undefined, fallback: number): number => (raw === undefined ? fallback : Number(raw));

const SelectOptions = z.object({
  chunks: z.string(),
  max: z.optional(nonNegativeOption),
  minScore: z.optional(nonNegativeOption),
  idfFloor: z.optional(nonNegativeOption),
  history: z.optional(z.array(z.string())),
  order: z.optional(z.enum(['deterministic', 'relevance'])),
  json: z.optional(z.boolean()),
});

/** `syt select`: which chunks a query loads, and the assembled context in cache-stable order. */
export function selectCommand(words: readonly string[], raw: unknown): void {
  const options = parseOptions(SelectOptions, raw, 'select');
  const query = words.join(' ');
  const chunks = loadChunks(options.chunks);
  const settings = {
    ...SELECT_DEFAULTS,
    maxChunks: numberOption(options.max, SELECT_DEFAULTS.maxChunks),
    minScore: numberOption(options.minScore, SELECT_DEFAULTS.minScore),
    idfFloor: numberOption(options.idfFloor, SELECT_DEFAULTS.idfFloor),
  };
  const history = options.history ?? [];
  const result = assemble(chunks, query, history, settings);
  const text = options.order === 'relevance' ? assembleByRelevance(chunks, query, history, settings) : result.text;
  if (options.json === true) {
    print(JSON.stringify({ query, order: options.order ?? 'deterministic', zone1: result.zone1, zone2: result.zone2, scores: result.scores, excluded: result.excluded, text }));
    return;
  }
  process.stdout.write(text);
}

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
