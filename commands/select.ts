import * as z from 'zod/mini';
import { assemble, assembleByRelevance, SELECT_DEFAULTS } from '../src/context/select.ts';
import { nonNegativeOption, numberOption, parseOptions } from './shared/options.ts';
import { loadChunks, print } from './shared/context-io.ts';

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
