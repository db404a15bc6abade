import type { Command } from 'commander';

/** Registers `stats …`, `cost` and `dashboard`; each action imports its command body only when it runs. */
export function register(program: Command): void {
  const stats = program.command('stats').description('audit what was done to the agent context');
  stats
    .command('status')
    .description('enabled?, data dir, DB health, record count')
    .option('--json', 'print as JSON')
    .action(async (options: unknown) => (await import('../stats-status.ts')).statsStatusCommand(options));
  stats
    .command('summary')
    .description('savings by operation, tool, session and day (latest 10,000 records)')
    .option('--limit <n>', 'latest N records', '10000')
    .option('--since <when>', 'YYYY-MM-DD, an ISO time, or Nd / Nh back from now')
    .option('--mode <mode>', 'active | dry_run | all', 'active')
    .option('--format <format>', 'table | json | csv', 'table')
    .option('--top <n>', 'table rows per section', '20')
    .option('--json', 'print as JSON (same as --format json)')
    .action(async (options: unknown) => (await import('./summary.ts')).statsSummaryCommand(options));
  stats
    .command('list')
    .description('recent records, newest first')
    .option('--limit <n>', 'how many', '20')
    .option('--session <id>', 'only this session')
    .option('--json', 'print as JSON')
    .action(async (options: unknown) => (await import('./records.ts')).statsListCommand(options));
  stats
    .command('show')
    .description('one record: its figures as list and summary count them, sizes, digests and retrieval commands')
    .argument('<id>', 'record id (from `stats list`)')
    .option('--json', 'print as JSON')
    .action(async (id: string, options: unknown) => (await import('./records.ts')).statsShowCommand(id, options));
  stats
    .command('diff')
    .description("unified diff of a record's original (from the stash while kept) against the view, or the chain of stages per tool use of a session")
    .argument('[id]', 'record id')
    .option('--session <id>', 'diff every chain of this session')
    .option('--tool-use-id <id>', 'with --session: only this tool use')
    .option('--json', 'print as JSON')
    .action(async (id: string | undefined, options: unknown) => (await import('./diff.ts')).statsDiffCommand(id, options));
  stats
    .command('compare')
    .description('a dry-run baseline session against an active session')
    .argument('<baseline>', 'baseline session id (recorded with TOKENLESS_DRY_RUN=1)')
    .argument('<session>', 'active session id')
    .option('--limit <n>', 'latest N records', '10000')
    .option('--json', 'print as JSON')
    .action(async (baseline: string, session: string, options: unknown) => (await import('./compare.ts')).statsCompareCommand(baseline, session, options));
  stats
    .command('usage')
    .description('token usage and cost from Claude Code transcripts (incremental)')
    .option('--log <file>', 'one transcript (or a comma-separated list)')
    .option('--claude-dir <dir>', 'a Claude config dir (default $CLAUDE_CONFIG_DIR or ~/.claude)')
    .option('--json', 'print as JSON')
    .action(async (options: unknown) => (await import('./usage.ts')).statsUsageCommand(options));
  for (const enabled of [true, false]) {
    stats
      .command(enabled ? 'enable' : 'disable')
      .description(enabled ? 'record operations again' : 'stop recording operations (compression continues)')
      .option('--json', 'print as JSON')
      .action(async (options: unknown) => (await import('./settings.ts')).statsEnableCommand(enabled, options));
  }
  stats
    .command('clear')
    .description('delete every record (needs --yes)')
    .option('--yes', 'really delete')
    .option('--json', 'print as JSON')
    .action(async (options: unknown) => (await import('./settings.ts')).statsClearCommand(options));

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
    .action(async (files: string[], _options: unknown, command: Command) => (await import('./cost-simulate.ts')).costSimulateCommand(files, command.optsWithGlobals()));
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
    .action(async (paths: string[], _options: unknown, command: Command) => (await import('./cost-history.ts')).costHistoryCommand(paths, command.optsWithGlobals()));

  program
    .command('dashboard')
    .description('write a self-contained HTML savings dashboard (no JavaScript)')
    .option('--out <file>', 'write here (default: stdout when piped; $TOKENLESS_DATA_DIR/dashboard.html at a terminal)')
    .option('--log <file>', 'transcript(s) to read')
    .option('--claude-dir <dir>', 'Claude config dir (default $CLAUDE_CONFIG_DIR or ~/.claude)')
    .option('--model <id>', 'price saved tokens as this model when transcripts do not say')
    .option('--rereads <n>', 'later requests assumed per record when transcripts do not say', '0')
    .option('--limit <n>', 'latest N records', '10000')
    .option('--json', 'print a JSON summary of what was written')
    .action(async (options: unknown) => (await import('./dashboard.ts')).dashboardCommand(options));
}
