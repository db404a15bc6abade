import type { Command } from 'commander';

/** Registers `filters list|test|try|trust`; each action imports its command body only when it runs. */
export function register(program: Command): void {
  const filters = program
    .command('filters')
    .description('filter files you write yourself (TOML): list them, run their inline tests, try one on a command, trust a project\'s');
  filters
    .command('list')
    .description('built-in and file-defined filters, where each comes from, whether it runs, what it matches')
    .option('--json', 'print the list as JSON')
    .action(async (options: unknown) => (await import('./list.ts')).listCommand(options));
  filters
    .command('test')
    .description('run the inline tests of FILE, or of every filter file here; exit 1 on a failure')
    .argument('[file]', 'a filter file (.toml)')
    .option('--json', 'print the results as JSON')
    .action(async (file: string | undefined, options: unknown) => (await import('./test.ts')).testCommand(file, options));
  filters
    .command('try')
    .description('run a command and show its output through FILE\'s filter, with raw and view token counts')
    .argument('<file>', 'a filter file (.toml)')
    .argument('<command...>', 'after --: the command to run')
    .option('--json', 'print the result as JSON')
    .allowUnknownOption()
    .action(async (file: string, words: string[], options: unknown) => (await import('./try.ts')).tryCommand(file, words, options));
  filters
    .command('trust')
    .description('let this project\'s filter files run, pinned to their current content (without FILE: list the untrusted ones)')
    .argument('[files...]', 'filter files in .tokenless/filters/')
    .option('--all', 'trust every untrusted project filter file')
    .action(async (files: string[], options: unknown) => (await import('./trust.ts')).trustCommand(files, options));
}
