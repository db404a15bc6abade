import type { Command } from 'commander';

/** Registers `stats …`; each action imports its command body only when it runs. */
export function register(program: Command): void {
  const stats = program.command('stats').description('audit what was done to the agent context');
  stats
    .command('status')
    .description('enabled?, data dir, DB health, record count')
    .option('--json', 'print as JSON')
    .action(async (options: unknown) => (await import('./status.ts')).statsStatusCommand(options));
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
    .action(async (options: unknown) => (await import('./list.ts')).statsListCommand(options));
  stats
    .command('show')
    .description('one record: its figures as list and summary count them, sizes, digests and retrieval commands')
    .argument('<id>', 'record id (from `stats list`)')
    .option('--json', 'print as JSON')
    .action(async (id: string, options: unknown) => (await import('./show.ts')).statsShowCommand(id, options));
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
  stats
    .command('export')
    .description('send what was recorded since the last export to an OTLP collector (needs TOKENLESS_TELEMETRY=1)')
    .option('--otlp', 'OTLP over HTTP: OTEL_EXPORTER_OTLP_ENDPOINT / _METRICS_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL')
    .option('--batch <n>', 'record ids per request', '20000')
    .option('--within <seconds>', 'stop after this long; what was not sent stays pending')
    .option('--json', 'print as JSON')
    .action(async (options: unknown) => (await import('./export.ts')).statsExportCommand(options));
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
}
