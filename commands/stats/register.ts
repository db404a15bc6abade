import type { Command } from 'commander';

/** Registers the stats commands; each action imports its command body only when it runs. */
export function register(program: Command): void {
  const stats = program.command('stats').description('audit what was done to the agent context');
  stats
    .command('status')
    .description('enabled?, data dir, DB health, record count')
    .option('--json', 'print as JSON')
    .action(async (options: unknown) => (await import('../stats-status.ts')).statsStatusCommand(options));
}
