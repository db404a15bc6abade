import type { Command } from 'commander';
import { DEFAULT_HARNESS, HARNESS_NAMES } from '../../src/harness/registry.ts';

const HARNESS_CHOICES = HARNESS_NAMES.join(' | ');

/** Registers `init`, `doctor` and `serve`; each action imports its command body only when it runs. */
export function register(program: Command): void {
  program
    .command('init')
    .description('register our hooks in a coding agent\'s settings, Claude Code by default (idempotent, keeps a backup, keeps every other setting)')
    .option('--harness <name>', `${HARNESS_CHOICES} (each has its own settings file)`, DEFAULT_HARNESS)
    .option('--scope <scope>', 'project (.claude/settings.local.json, not committed) | user (~/.claude/settings.json)', 'project')
    .option('--http', 'register HTTP hooks served by `tokenless serve` instead of command hooks')
    .option('--port <n>', 'with --http: the port of `tokenless serve`')
    .option('--uninstall', 'remove exactly what init added, restoring the backup when nothing else changed')
    .option('--dry-run', 'print the diff and change nothing')
    .option('--json', 'print the result as JSON')
    .action(async (options: unknown) => (await import('./init.ts')).initCommand(options));
  program
    .command('doctor')
    .description('check the installation of our hooks (Claude Code by default, or --harness) and say what to fix')
    .option('--harness <name>', HARNESS_CHOICES, DEFAULT_HARNESS)
    .option('--json', 'print the checks as JSON')
    .action(async (options: unknown) => (await import('./doctor.ts')).doctorCommand(options));
  program
    .command('serve')
    .description('serve the Claude Code hooks over HTTP on 127.0.0.1 (no process start per tool call)')
    .option('--port <n>', 'port to listen on (0: any free port)')
    .action(async (options: unknown) => (await import('./serve.ts')).serveCommand(options));
}
