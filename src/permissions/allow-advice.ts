/**
 * Which allow rule we may suggest to a person for a command Claude Code asks about. A suggestion is a standing
 * permission, so it is made only for a test, build or check runner (it runs the project's own code inside the working
 * tree, which is what the person already does by hand); never for a command that writes outside the working tree,
 * publishes, deletes, rewrites history or reaches the network (`git push`, `npm publish`, `rm`, `curl`,
 * `gh pr merge`, an installer), nor for an interpreter or a package runner that can run anything. Those are withheld,
 * with the reason, so the person can decide knowingly. Read-only commands need no rule: Claude Code runs them unasked.
 *
 * Self-contained on purpose: it is consulted only where advice is printed (doctor, the permission dialog's reason).
 */

export type AllowAdvice =
  | { readonly suggest: true; readonly rule: string }
  | { readonly suggest: false; readonly rule: string; readonly why: string };

const rule = (words: readonly string[]): string => `Bash(${words.join(' ')}:*)`;

/** Scripts a package manager runs that test, build or check the project (`npm run build`, `pnpm lint:fix`). */
const CHECK_SCRIPT = /^(test|tests|build|lint|typecheck|type-check|check|compile|tsc)([:-][\w:-]*)?$/u;
const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
/** Programs whose every run is a test, type check or lint of the project. */
const CHECKERS = new Set(['pytest', 'py.test', 'tox', 'nox', 'vitest', 'jest', 'mocha', 'tsc', 'eslint', 'ruff', 'mypy', 'pylint']);
/** Build tools and the subcommands of theirs that test, build or check. */
const BUILD_SUBCOMMANDS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['cargo', new Set(['test', 't', 'build', 'b', 'check', 'c', 'clippy', 'bench'])],
  ['go', new Set(['test', 'build', 'vet'])],
  ['make', new Set(['test', 'tests', 'check', 'build', 'lint', 'typecheck'])],
  ['mvn', new Set(['test', 'compile', 'verify', 'package'])],
  ['gradle', new Set(['test', 'build', 'check', 'assemble'])],
  ['./gradlew', new Set(['test', 'build', 'check', 'assemble'])],
]);
const PACKAGE_RUNNERS = new Set(['npx', 'pnpx', 'bunx']);

/** Why the common commands that are not test or build runs get no rule; the rest fall back to a generic reason. */
const WHY: ReadonlyMap<string, string> = new Map([
  ['git push', 'it publishes to a remote'],
  ['git pull', 'it reaches the network and rewrites the working tree'],
  ['git fetch', 'it reaches the network'],
  ['git clone', 'it reaches the network and writes outside the project'],
  ['git commit', 'it changes the repository history'],
  ['git add', 'it changes what the next commit holds'],
  ['git merge', 'it changes the repository history'],
  ['git rebase', 'it rewrites the repository history'],
  ['git cherry-pick', 'it changes the repository history'],
  ['git revert', 'it changes the repository history'],
  ['git am', 'it changes the repository history'],
  ['git reset', 'it can discard work'],
  ['git checkout', 'it can discard work'],
  ['git switch', 'it can discard work'],
  ['git restore', 'it discards work'],
  ['git clean', 'it deletes files'],
  ['git rm', 'it deletes files'],
  ['git mv', 'it moves files'],
  ['git apply', 'it rewrites files from a patch'],
  ['git init', 'it creates a repository'],
  ['gh', 'it acts on GitHub (merges, releases, comments) over the network'],
  ['rm', 'it deletes files'],
  ['rmdir', 'it deletes directories'],
  ['curl', 'it reaches the network'],
  ['wget', 'it reaches the network'],
  ['ssh', 'it reaches the network'],
  ['scp', 'it reaches the network'],
  ['rsync', 'it copies files, possibly over the network'],
  ['docker', 'it controls containers outside the working tree'],
  ['kubectl', 'it acts on a cluster over the network'],
  ['sudo', 'it runs as another user'],
]);

const INSTALL = new Set(['install', 'i', 'ci', 'add', 'sync', 'update', 'upgrade', 'remove', 'uninstall', 'rebuild', 'get', 'create']);
const PUBLISH = new Set(['publish', 'release', 'deploy', 'unpublish']);

/**
 * argv: the program's static words, wrappers already skipped (`npm run build`, `git push origin main`). The rule a
 * suggestion carries is as narrow as the runner allows: `Bash(npm run build:*)`, never `Bash(npm run:*)`.
 */
export function adviseAllowRule(argv: readonly string[]): AllowAdvice {
  const [program = '', first, second] = argv;
  const asked = rule(argv.slice(0, 2));
  const withhold = (why: string): AllowAdvice => ({ suggest: false, rule: asked, why });
  const sub = first ?? '';

  if (PUBLISH.has(sub)) return withhold('it publishes');
  if (PACKAGE_MANAGERS.has(program)) {
    if (sub === 'test' || sub === 't') return { suggest: true, rule: rule([program, 'test']) };
    if (sub === 'run' || sub === 'run-script') {
      return second !== undefined && CHECK_SCRIPT.test(second) ? { suggest: true, rule: rule([program, sub, second]) } : withhold(`\`${program} ${sub}\` runs any package script, not only tests and builds`);
    }
    if (INSTALL.has(sub)) return withhold('it downloads packages from the network, writes outside the working tree and runs their install scripts');
    if (sub === 'exec' || sub === 'x' || sub === 'dlx') return withhold('it can download and run any package');
    // `pnpm build`, `yarn lint`: a script named directly.
    if (program !== 'npm' && CHECK_SCRIPT.test(sub)) return { suggest: true, rule: rule([program, sub]) };
    return withhold(`\`${program} ${sub}\` is not a test or build run`);
  }
  if (CHECKERS.has(program)) return { suggest: true, rule: rule([program]) };
  if (PACKAGE_RUNNERS.has(program)) {
    return CHECKERS.has(sub) ? { suggest: true, rule: rule([program, sub]) } : withhold('it can download and run any package');
  }
  const build = BUILD_SUBCOMMANDS.get(program);
  if (build !== undefined) {
    if (build.has(sub)) return { suggest: true, rule: rule([program, sub]) };
    if (sub === 'run' || sub === 'r') return withhold('it runs the program itself, not its tests');
    if (INSTALL.has(sub)) return withhold('it reaches the network and writes outside the working tree');
    if (first === undefined) return withhold(`a bare \`${program}\` runs whatever its default target does`);
    return withhold(`\`${program} ${sub}\` is not a test or build run`);
  }
  if (['node', 'python', 'python3', 'deno', 'ruby', 'perl', 'bash', 'sh'].includes(program)) return withhold('an interpreter runs any script, not only tests');
  if (['gcc', 'g++', 'clang', 'cc', 'rustc'].includes(program)) return withhold('a compiler writes wherever -o points; allow the project\'s build command instead');
  if (['pip', 'pip3', 'uv', 'poetry', 'conda', 'pipenv'].includes(program)) {
    return sub === 'run' ? withhold('it runs any command') : withhold('it downloads packages from the network and writes outside the working tree');
  }
  const why = WHY.get(`${program} ${sub}`) ?? WHY.get(program);
  return withhold(why ?? 'it is not a test, build or check run');
}
