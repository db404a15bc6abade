import { Command, CommanderError, Option } from 'commander';
import { register as registerBudget } from './budget/register.ts';
import { register as registerContext } from './context/register.ts';
import { register as registerFilters } from './filters/register.ts';
import { CliError, errorLine } from './errors.ts';
import { register as registerIntegration } from './integration/register.ts';
import { register as registerStats } from './stats/register.ts';
import { SESSION_ENV } from '../src/harness/registry.ts';
import { programName } from './terminal.ts';

/** Full CLI: each command's body is imported only when that command runs. */
export async function runProgram(argv: readonly string[], version: string): Promise<void> {
  const name = programName();
  const program = new Command(name)
    .description('Cut the tokens coding agents spend, recoverably: hooks, a command wrapper, audits.')
    .version(version, '-V, --version')
    .exitOverride()
    // Commander's own errors (unknown option, missing argument) under the invoked name, like ours.
    .configureOutput({ writeErr: (text) => process.stderr.write(text), outputError: (text, write) => write(text.replace(/^error: /, `${name}: `)) });

  program
    .command('hook')
    .description('answer one lifecycle call: JSON on stdin, JSON on stdout (native envelope or Claude Code hook JSON)')
    .argument('<lifecycle>', 'before_model | pre_tool | post_tool | retrieve')
    .action(async (lifecycle: string) => (await import('../hooks/hook.ts')).hookCommand([lifecycle]));

  program
    .command('run')
    .description('run a program and print a compact, filtered view of its output; exits with its exit code')
    .argument('<program-and-args...>', 'after --: the real command')
    .allowUnknownOption()
    .action(async (words: string[]) => (await import('./run.ts')).runCommand(words));

  program
    .command('retrieve')
    .description('print the exact original behind a marker, or part of it (--lines, --grep, --search)')
    .argument('<marker>', 'the marker: [tokenless retrieve ID], <<tokenless:ID>> or the bare ID')
    .option('--session <id>', `session the marker was shown in (default: ${SESSION_ENV.map((name) => `$${name}`).join(' or ')})`)
    .option('--any-session', 'skip the session check: for a person at a terminal (refused unless stdin and stdout are a TTY, as an agent\'s shell has none; a guard against mix-ups, not a security boundary)')
    .option('--lines <range>', 'print only lines A-B (also A, or A- to the end); with --grep or --search, look only there')
    .option('--grep <regex>', 'print only the lines matching a JavaScript regular expression, numbered like grep -n')
    .option('-C, --context <n>', 'with --grep: lines of context around each match (0-20)')
    .option('-i, --ignore-case', 'with --grep: ignore case')
    .option('--search <words>', 'print the sections that best match the words, best first (BM25)')
    .option('--top <n>', 'with --search: how many sections (1-10, default 3)')
    .action(async (marker: string, options: unknown) => (await import('./retrieve.ts')).retrieveCommand(marker, options));

  program
    .command('filter')
    .description('print what a command line would show once pre_tool rewrote it, for its captured stdout (stdin)')
    .requiredOption('--command <line>', 'the command line that produced the output')
    .option('--exit-code <n>', 'its exit code', '0')
    .option('--stderr <file>', 'its captured stderr')
    .option('--json', 'one JSON object: output, stderr, filter, recoverability, stash_keys')
    .action(async (options: unknown) => (await import('./filter.ts')).filterCommand(options));

  program
    .command('rewrite')
    .description('show how pre_tool would rewrite a shell command, and why (or why not)')
    .argument('<command>', 'the command line')
    .option('--json', 'print the plan as JSON')
    .action(async (command: string, options: unknown) => (await import('./rewrite.ts')).rewriteCommand(command, options));

  program
    .command('demo')
    .description('run bundled real tool outputs through the pipeline and print before/after')
    .option('--json', 'print the results as JSON')
    .action(async (options: unknown) => (await import('./demo.ts')).demoCommand(options));

  program
    .command('discover')
    .description('rank the commands of your own Claude Code sessions whose outputs cost the most and got no view; draft a filter file for one')
    .argument('[paths...]', 'transcripts or directories (default: --claude-dir, $CLAUDE_CONFIG_DIR or ~/.claude)')
    .option('--claude-dir <dir>', 'a Claude Code config directory to search')
    .option('--project <text>', 'only sessions whose project path contains this')
    .option('--since <when>', 'only sessions changed since YYYY-MM-DD, an ISO time, or Nd/Nh')
    .option('--max-sessions <n>', 'the newest N sessions (default 200)')
    .option('--top <n>', 'how many commands to list (default 15)')
    .option('--mode <mode>', 'permission mode the replay assumes: default | bypass', 'default')
    .option('--write <command>', 'draft a filter file for this command (a key from the list), its recorded outputs as inline tests')
    .option('--out <file>', 'with --write: where (default .tokenless/filters/<command>.toml)')
    .option('--json', 'print the ranking as JSON')
    .action(async (paths: string[], options: unknown) => (await import('./discover.ts')).discoverCommand(paths, options));

  registerStats(program);
  registerBudget(program);
  registerContext(program);
  registerIntegration(program);
  registerFilters(program);

  program.addOption(new Option('--no-color', 'disable colours').hideHelp());

  // The command that runs, for error lines (`syt stats show: …`).
  let running = '';
  program.hook('preAction', (_program, action) => {
    const names: string[] = [];
    for (let command: Command | null = action; command !== null && command !== program; command = command.parent) names.unshift(command.name());
    running = names.join(' ');
  });

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    process.exitCode = exitCodeFor(error, name, running);
  }
}

function exitCodeFor(error: unknown, name: string, command: string): number {
  if (error instanceof CommanderError) {
    // Help and version are successes; anything else commander rejects is a usage error.
    return error.exitCode === 0 ? 0 : 2;
  }
  if (error instanceof CliError) {
    process.stderr.write(`${errorLine(error.message, name, command)}\n`);
    return error.exitCode;
  }
  process.stderr.write(`${errorLine(error instanceof Error ? error.message : String(error), name, command)}\n`);
  return 1;
}
