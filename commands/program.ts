import { Command, CommanderError, Option } from 'commander';
import { CliError, errorLine } from './shared/errors.ts';
import { register as registerCost } from './cost/register.ts';
import { register as registerFilters } from './filters/register.ts';
import { register as registerStats } from './stats/register.ts';
import { DEFAULT_HARNESS, HARNESS_NAMES, SESSION_ENV } from '../src/harness/registry.ts';
import { programName } from './shared/terminal.ts';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
const HARNESS_CHOICES = HARNESS_NAMES.join(' | ');

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
    .argument('<lifecycle>', "before_model | pre_tool | post_tool | retrieve | session (Claude Code's session events: UserPromptSubmit, SessionStart, PreCompact, SessionEnd)")
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
    .description('rank the commands of your own Claude Code sessions by what a drafted filter file would save on the outputs that got no view; draft one')
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
  registerCost(program);

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

  program
    .command('analyze')
    .description('context budget of a project (context files per layer) or of agent transcripts (--log)')
    .argument('[dir]', 'project directory', '.')
    .option('--log <path>', 'a transcript file or a folder of them: Claude Code .jsonl, aider .md(.gz), SWE-agent .traj')
    .option('--profile <name>', 'budget profile: chat, agentic, rag or one from config')
    .option('--context-window <tokens>', 'context window in tokens (default 200000 or config)')
    .option('--no-replay', 'with --log: skip replaying tool calls through our hooks')
    .option('--mode <mode>', 'with --log: the permission mode the replayed hooks see: default or bypass (default: default, as bench:sessions)')
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
    .description('fold what is finished in context files (checked items, sections whose every item is checked, dated changelog entries) into one line with a marker (recoverable)')
    .argument('[files...]', 'context files (default: progress/todo files found in the current directory)')
    .option('--auto', 'apply only what the budget ladder calls for, without prompting (for hooks)')
    .option('--dry-run', 'show the diff, change nothing')
    .option('--restore <file>', 'put every folded part of FILE back, byte-exact')
    .option('--transcript <file>', 'with --auto: a Claude Code transcript whose last request gives the context size')
    .option('--profile <name>', 'budget profile for --auto')
    .option('--json', 'print one JSON document')
    .action(async (files: string[], options: unknown) => (await import('./compact.ts')).compactCommand(files, options));

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
    .action(async (file: string, options: unknown) => (await import('./chunk.ts')).chunkCommand(file, options));

  program
    .command('schema')
    .description('show what before_model schema compression does to a request\'s tools (nothing is stashed)')
    .argument('<request.json>', 'an Anthropic Messages request body (or a capture with a `body` field)')
    .option('--mode <mode>', 'recoverable (default) or lossless')
    .option('--real-tokens', 'count with the o200k tokenizer (slow to load) instead of the estimate')
    .option('--json', 'print as JSON')
    .action(async (file: string, options: unknown) => (await import('./schema.ts')).schemaCommand(file, options));

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
    .action(async (file: string, options: unknown) => (await import('./plan.ts')).planCommand(file, options));

  program
    .command('gateway')
    .description('local Anthropic Messages proxy: streams through, logs usage, only cache-safe request changes')
    .option('--port <n>', 'port on 127.0.0.1', '8787')
    .option('--upstream <url>', 'where to forward (default $TOKENLESS_UPSTREAM or https://api.anthropic.com)')
    .option('--schema <mode>', 'off (default) or lossless: rewrite tool schemas deterministically')
    .option('--fold <on|off>', 'after a pause that expired the cache, fold old large tool results into retrievable markers (default on)')
    .option('--tool-tiers <on|off>', 'stub the tools a session has not used, decided at its first request (default off)')
    .option('--keep-warm', 'over a pause, re-send the last request with max_tokens 1 before its cache expires, while that costs less than one re-write (default off)')
    .option('--keep-warm-cap <dollars>', 'with --keep-warm: the most one pause\'s pings may cost (default: one re-write of the prompt)')
    .option('--keep-warm-idle <minutes>', 'with --keep-warm: no ping this long after a session\'s last request (default 60)')
    .action(async (options: unknown) => (await import('./gateway.ts')).gatewayCommand(options));

  program
    .command('init')
    .description('register our hooks in a coding agent\'s settings, Claude Code by default (idempotent, keeps a backup, keeps every other setting)')
    .option('--harness <name>', `${HARNESS_CHOICES} | all (every agent on PATH; each has its own settings file)`, DEFAULT_HARNESS)
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
    .option('--harness <name>', `${HARNESS_CHOICES} | all (every agent set up here or on PATH)`)
    .option('--json', 'print the checks as JSON')
    .action(async (options: unknown) => (await import('./doctor.ts')).doctorCommand(options));
  program
    .command('serve')
    .description('serve the Claude Code hooks over HTTP on 127.0.0.1 (no process start per tool call)')
    .option('--port <n>', 'port to listen on (0: any free port)')
    .action(async (options: unknown) => (await import('./serve.ts')).serveCommand(options));
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
