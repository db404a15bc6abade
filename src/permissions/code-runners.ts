/**
 * Commands Claude Code always asks about in the default permission mode when no allow rule covers them: programs that
 * run a project's code or scripts (test runners, builds, package scripts, interpreters, installers) and git commands
 * that change the repository. Only these get a PreToolUse `ask` carrying our rewrite. A command the client might run
 * without asking must never get one (it would turn a silent command into a dialog), so the list is deliberately
 * narrow: version and help queries, and any subcommand not listed, are left out.
 */

const PACKAGE_SCRIPTS = new Set(['test', 't', 'run', 'run-script', 'install', 'i', 'ci', 'exec', 'x', 'dlx', 'build', 'start', 'rebuild', 'add']);

/** Subcommands that run code or write, per program; `null`: every invocation but a version or help query runs code. */
const RUNNERS: ReadonlyMap<string, ReadonlySet<string> | null> = new Map<string, ReadonlySet<string> | null>([
  ...['npm', 'pnpm', 'yarn', 'bun'].map((name) => [name, PACKAGE_SCRIPTS] as const),
  ['cargo', new Set(['test', 'build', 'run', 'check', 'clippy', 'bench', 'b', 't', 'r', 'install'])],
  ['go', new Set(['test', 'build', 'run', 'vet', 'generate', 'install', 'get'])],
  ...['pip', 'pip3', 'uv', 'poetry', 'conda', 'pipenv'].map((name) => [name, new Set(['install', 'add', 'sync', 'run', 'create', 'update', 'remove', 'uninstall'])] as const),
  // Not `stash` (`git stash list` runs unasked: the permission differential caught it) nor `tag` (bare, it lists).
  ['git', new Set(['add', 'commit', 'push', 'pull', 'merge', 'rebase', 'reset', 'checkout', 'switch', 'cherry-pick', 'rm', 'mv', 'clone', 'restore', 'revert', 'am', 'apply', 'init'])],
  ...['npx', 'pnpx', 'bunx', 'make', 'pytest', 'py.test', 'tox', 'nox', 'vitest', 'jest', 'mocha', 'tsc', 'eslint', 'ruff', 'mypy', 'pylint', 'gcc', 'g++', 'clang', 'cc', 'rustc', 'mvn', 'gradle', './gradlew', 'node', 'python', 'python3', 'deno'].map(
    (name) => [name, null] as const,
  ),
]);

/** A first argument that only asks for the version or the usage (`node -v`; `pytest -v` is verbose, not a query). */
const QUERY = /^(-v|-V|--version|version|-h|--help|help)$/;
/** Options of the package managers and git that come before the subcommand and take a value. */
const VALUED_GLOBAL = new Set(['--filter', '-F', '-C', '--dir', '--prefix', '--cwd', '--workspace', '-w', '-c', '--git-dir', '--work-tree']);

/** argv: the program's static words, wrappers (`timeout 60`) already skipped. */
export function runsProjectCode(argv: readonly string[]): boolean {
  const [program, ...args] = argv;
  if (program === undefined) return false;
  const subcommands = RUNNERS.get(program);
  if (subcommands === undefined) return false;
  if ((args[0] !== undefined && QUERY.test(args[0])) || args.includes('--version') || args.includes('--help')) return false;
  // A bare `make` or `pytest` runs the default target or every test; a bare `npm` only prints its usage.
  if (subcommands === null) return true;
  const sub = subcommand(args);
  return sub !== undefined && subcommands.has(sub);
}

/** The first argument that is not a global option (`pnpm --filter api test` -> `test`). */
function subcommand(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if (VALUED_GLOBAL.has(arg)) i += 1;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}
