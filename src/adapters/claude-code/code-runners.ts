/**
 * Commands Claude Code always asks about in the default permission mode when no allow rule covers them: programs that
 * run a project's code or scripts (test runners, builds, package scripts, interpreters). Only these get a PreToolUse
 * `ask` carrying our rewrite. A command the client might run without asking must never get one (it would turn a silent
 * command into a dialog), so the list is deliberately narrow: version and help queries, and any subcommand not listed,
 * are left out.
 */

/** Subcommands that run code, per program; `null`: every invocation but a version or help query runs code. */
const RUNNERS: ReadonlyMap<string, ReadonlySet<string> | null> = new Map<string, ReadonlySet<string> | null>([
  ...['npm', 'pnpm', 'yarn', 'bun'].map((name) => [name, new Set(['test', 't', 'run', 'run-script', 'install', 'i', 'ci', 'exec', 'x', 'dlx', 'build', 'start', 'rebuild', 'add'])] as const),
  ['cargo', new Set(['test', 'build', 'run', 'check', 'clippy', 'bench', 'b', 't', 'r'])],
  ['go', new Set(['test', 'build', 'run', 'vet', 'generate', 'install'])],
  ...['npx', 'pnpx', 'bunx', 'make', 'pytest', 'py.test', 'tox', 'nox', 'vitest', 'jest', 'mocha', 'tsc', 'eslint', 'ruff', 'mypy', 'pylint', 'gcc', 'g++', 'clang', 'cc', 'rustc', 'mvn', 'gradle', './gradlew', 'node', 'python', 'python3', 'deno'].map(
    (name) => [name, null] as const,
  ),
]);

const QUERY = /^(-v|-V|--version|version|-h|--help|help)$/;

/** argv: the program's static words, wrappers (`timeout 60`) already skipped. */
export function runsProjectCode(argv: readonly string[]): boolean {
  const [program, ...args] = argv;
  if (program === undefined) return false;
  const subcommands = RUNNERS.get(program);
  if (subcommands === undefined) return false;
  if (args.some((arg) => QUERY.test(arg) && (arg.startsWith('-') || arg === args[0]))) return false;
  // A bare `make` or `pytest` runs the default target or every test; a bare `npm` only prints its usage.
  return subcommands === null || (args[0] !== undefined && subcommands.has(args[0]));
}
