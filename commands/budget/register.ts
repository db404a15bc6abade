import type { Command } from 'commander';

/** Registers the budget commands; each action imports its command body only when it runs. */
export function register(program: Command): void {
  program
    .command('analyze')
    .description('context budget of a project (context files per layer) or of agent transcripts (--log)')
    .argument('[dir]', 'project directory', '.')
    .option('--log <path>', 'a transcript file or a folder of them: Claude Code .jsonl, aider .md(.gz), SWE-agent .traj')
    .option('--profile <name>', 'budget profile: chat, agentic, rag or one from config')
    .option('--context-window <tokens>', 'context window in tokens (default 200000 or config)')
    .option('--no-replay', 'with --log: skip replaying tool outputs through our filters')
    .option('--json', 'print one JSON document')
    .action(async (dir: string, options: unknown) => (await import('./analyze.ts')).analyzeCommand(dir, options));

  program
    .command('skills')
    .description('the skills Claude Code lists here (project, user, plugins): tokens in every request and when loaded, against the budget')
    .argument('[dir]', 'project directory', '.')
    .option('--profile <name>', 'budget profile: chat, agentic, rag or one from config')
    .option('--context-window <tokens>', 'context window in tokens (default 200000 or config)')
    .option('--json', 'print one JSON document')
    .action(async (dir: string, options: unknown) => (await import('./skills.ts')).skillsCommand(dir, options));

  program
    .command('compact')
    .description('fold finished items and done sections of context files into one line with a marker (recoverable)')
    .argument('[files...]', 'context files (default: progress/todo files found in the current directory)')
    .option('--auto', 'apply only what the budget ladder calls for, without prompting (for hooks)')
    .option('--dry-run', 'show the diff, change nothing')
    .option('--restore <file>', 'put every folded part of FILE back, byte-exact')
    .option('--transcript <file>', 'with --auto: a Claude Code transcript whose last request gives the context size')
    .option('--profile <name>', 'budget profile for --auto')
    .option('--json', 'print one JSON document')
    .action(async (files: string[], options: unknown) => (await import('./compact.ts')).compactCommand(files, options));
}
