import type { Command } from 'commander';

/** Registers `cost …`; each action imports its command body only when it runs. */
export function register(program: Command): void {
  const cost = program
    .command('cost')
    .description('saved tokens in dollars, savings at a cache-hit rate, Gemini explicit-caching break-even')
    .option('--model <id>', 'price saved tokens as this model when transcripts do not say', 'claude-sonnet-4-5')
    .option('--rereads <n>', 'later requests assumed per record when transcripts do not say', '0')
    .option('--cache-hit-rate <r>', 'scenario: share of prompt tokens read from cache, 0..1', '0.85')
    .option('--requests-per-day <n>', 'scenario: request volume', '100')
    .option('--tokens-before <n>', 'scenario: prompt tokens without us (default: average before per record)')
    .option('--tokens-after <n>', 'scenario: prompt tokens with us (default: average after per record)')
    .option('--gemini-model <id>', 'break-even: Gemini model', 'gemini-2.5-pro')
    .option('--cached-tokens <n>', 'break-even: tokens in the explicit cache', '100000')
    .option('--log <file>', 'transcript(s) for session models and later requests')
    .option('--claude-dir <dir>', 'Claude config dir for the same')
    .option('--since <when>', 'YYYY-MM-DD, an ISO time, or Nd / Nh')
    .option('--limit <n>', 'latest N records', '10000')
    .option('--json', 'print as JSON')
    .action(async (options: unknown) => (await import('./cost.ts')).costCommand(options));
  cost
    .command('simulate')
    .description('replay transcripts through a model of the prompt cache, checked against their recorded usage')
    .argument('<transcript...>', 'Claude Code transcript(s) (.jsonl)')
    .option('--hooks <file>', 'price the hooks with the output of `node scripts/bench-sessions.mjs --json`')
    .option('--tools <file>', 'price the gateway\'s tool tiers with the tools of a captured Messages request (JSON)')
    .option('--insert-pause <minutes>', 'price the policies as if each session had paused this long before its middle request')
    .option('--json', 'print as JSON')
    // `cost` has its own --json: with the globals merged, `cost simulate … --json` works wherever the flag is put.
    .action(async (files: string[], _options: unknown, command: Command) => (await import('./simulate.ts')).costSimulateCommand(files, command.optsWithGlobals()));
  cost
    .command('history')
    .description("your own Claude Code sessions: billed cost, and what the hooks and each cache policy would have saved, beside the simulator's error")
    .argument('[path...]', 'transcripts, or directories to search (default: $CLAUDE_CONFIG_DIR or ~/.claude)')
    .option('--claude-dir <dir>', 'a Claude config dir to search instead of the default')
    .option('--project <text>', "only projects whose directory name under projects/ contains this")
    .option('--since <when>', 'only transcripts changed since: YYYY-MM-DD, an ISO time, or Nd / Nh')
    .option('--max-sessions <n>', 'the newest N transcripts', '500')
    .option('--max-seconds <n>', 'stop reading after N seconds (the rest is counted as not taken)', '300')
    .option('--json', 'print as JSON')
    // `cost` has its own --since, --claude-dir and --json: with the globals merged they work wherever they are put.
    .action(async (paths: string[], _options: unknown, command: Command) => (await import('./history.ts')).costHistoryCommand(paths, command.optsWithGlobals()));
}
