import type { Command } from 'commander';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Registers the context commands; each action imports its command body only when it runs. */
export function register(program: Command): void {
  program
    .command('select')
    .description('select the context chunks a query needs (CAL) and print them in cache-stable order')
    .argument('<query...>', 'the user message')
    .requiredOption('--chunks <dir>', 'directory of chunk JSON files')
    .option('--max <n>', 'most chunks to select')
    .option('--min-score <x>', 'lowest score that selects a chunk')
    .option('--idf-floor <n>', 'triggers in this many chunks or more weigh zero (0 disables)')
    .option('--history <query>', 'an earlier user message (repeatable, oldest first)', collect)
    .option('--order <order>', 'deterministic (default) or relevance (for comparison only)')
    .option('--json', 'one JSON object: zones, scores, exclusions, text')
    .action(async (words: string[], options: unknown) => (await import('./select.ts')).selectCommand(words, options));

  program
    .command('chunk')
    .description('split a large document into chunk JSON files along its structure')
    .argument('<file>', 'a Markdown or text document')
    .option('--max-tokens <n>', 'largest chunk, in estimated tokens (a whole number, 1 or more; default 800)')
    .option('--prefix <id>', 'chunk id prefix (default: the file name)')
    .option('--out <dir>', 'write one <id>.json per chunk here')
    .option('--json', 'print as JSON')
    .action(async (file: string, options: unknown) => (await import('./select.ts')).chunkCommand(file, options));

  program
    .command('schema')
    .description('show what before_model schema compression does to a request\'s tools (nothing is stashed)')
    .argument('<request.json>', 'an Anthropic Messages request body (or a capture with a `body` field)')
    .option('--mode <mode>', 'recoverable (default) or lossless')
    .option('--real-tokens', 'count with the o200k tokenizer (slow to load) instead of the estimate')
    .option('--json', 'print as JSON')
    .action(async (file: string, options: unknown) => (await import('./inspect.ts')).schemaCommand(file, options));

  program
    .command('plan')
    .description('show the prompt-cache plan an engine gets for a request (breakpoints, routing key, degradations)')
    .argument('<request.json>', 'an Anthropic Messages request body (or a capture with a `body` field)')
    .option('--engine <engine>', 'anthropic | openai | deepseek | gemini | vllm | sglang')
    .option('--model <model>', 'model id (default: the request\'s)')
    .option('--session <key>', 'conversation key for shard and salt choices')
    .option('--rpm <n>', 'expected requests per minute on this prefix (OpenAI sharding)')
    .option('--wire', 'also print the emitted wire request')
    .option('--json', 'print as JSON')
    .action(async (file: string, options: unknown) => (await import('./inspect.ts')).planCommand(file, options));

  program
    .command('gateway')
    .description('local Anthropic Messages proxy: streams through, logs usage, only cache-safe request changes')
    .option('--port <n>', 'port on 127.0.0.1', '8787')
    .option('--upstream <url>', 'where to forward (default $TOKENLESS_UPSTREAM or https://api.anthropic.com)')
    .option('--schema <mode>', 'off (default) or lossless: rewrite tool schemas deterministically')
    .option('--fold <on|off>', 'after a pause that expired the cache, fold old large tool results into retrievable markers (default on)')
    .option('--tool-tiers <on|off>', 'stub the tools a session has not used, decided at its first request (default off)')
    .action(async (options: unknown) => (await import('./gateway.ts')).gatewayCommand(options));
}
