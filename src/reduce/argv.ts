/** The program a command line really runs, after launchers (`npx`, `python -m`, `./node_modules/.bin/`). */
export interface Invocation {
  /** Lower-case basename of the program, e.g. `vitest`, `git`, `pytest`. */
  readonly tool: string;
  readonly args: readonly string[];
}

const LAUNCHERS = new Set(['npx', 'pnpx', 'bunx']);
const PYTHONS = /^python(?:\d+(?:\.\d+)?)?$|^py$/;

function basename(program: string): string {
  const base = program.slice(Math.max(program.lastIndexOf('/'), program.lastIndexOf('\\')) + 1);
  return base.replace(/\.(?:exe|cmd|bat|js|mjs|cjs)$/i, '').toLowerCase();
}

/** Resolves launchers; returns null for an empty argv. */
export function invocation(argv: readonly string[]): Invocation | null {
  let rest: readonly string[] = argv;
  // Leading VAR=value assignments (as typed through `env`) do not change which program runs.
  if (rest[0] === 'env') rest = rest.slice(1);
  while (rest.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0] ?? '')) rest = rest.slice(1);
  for (let guard = 0; guard < 4 && rest.length > 0; guard++) {
    const tool = basename(rest[0] ?? '');
    if (LAUNCHERS.has(tool)) {
      rest = rest.slice(1);
      while ((rest[0] ?? '').startsWith('-')) rest = rest.slice(1);
    } else if ((tool === 'pnpm' || tool === 'yarn' || tool === 'bun') && ['exec', 'dlx', 'x'].includes(rest[1] ?? '')) {
      rest = rest.slice(2);
    } else if ((tool === 'uv' || tool === 'poetry' || tool === 'pipenv') && rest[1] === 'run') {
      rest = rest.slice(2);
    } else if (PYTHONS.test(tool) && rest[1] === '-m' && rest[2] !== undefined) {
      rest = rest.slice(2);
    } else {
      break;
    }
  }
  const program = rest[0];
  if (program === undefined || program === '') return null;
  return { tool: basename(program), args: rest.slice(1) };
}

/** Whether any argument is one of `flags` (long flags also match in `--flag=value` form). */
export function hasFlag(args: readonly string[], ...flags: string[]): boolean {
  return args.some((arg) => flags.includes(arg) || flags.some((f) => f.startsWith('--') && arg.startsWith(`${f}=`)));
}

/** Whether a short-flag cluster such as `-la` or `-rn` contains `letter`. */
export function hasShortFlag(args: readonly string[], letter: string): boolean {
  return args.some((arg) => /^-[A-Za-z]+$/.test(arg) && arg.includes(letter));
}

const GIT_VALUE_OPTIONS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path']);

/** `git [global options] <subcommand> args` -> subcommand and its args, or null when this is not git. */
export function gitSubcommand(argv: readonly string[]): { sub: string; args: readonly string[] } | null {
  const inv = invocation(argv);
  if (inv === null || inv.tool !== 'git') return null;
  let i = 0;
  while (i < inv.args.length) {
    const arg = inv.args[i] ?? '';
    if (GIT_VALUE_OPTIONS.has(arg)) i += 2;
    else if (arg.startsWith('-')) i += 1;
    else break;
  }
  const sub = inv.args[i];
  return sub === undefined ? null : { sub, args: inv.args.slice(i + 1) };
}

/** `npm test`, `npm run lint`, `pnpm build`, `yarn test`, `make check` -> the script or target name. */
export function scriptName(argv: readonly string[]): { runner: string; script: string } | null {
  const inv = invocation(argv);
  if (inv === null) return null;
  const positional = inv.args.filter((a) => !a.startsWith('-'));
  if (inv.tool === 'npm' || inv.tool === 'pnpm' || inv.tool === 'yarn' || inv.tool === 'bun') {
    const [first, second] = positional;
    if (first === 'test' || first === 't' || first === 'tst') return { runner: inv.tool, script: 'test' };
    if ((first === 'run' || first === 'run-script') && second !== undefined) return { runner: inv.tool, script: second };
    if (inv.tool !== 'npm' && first !== undefined && !['install', 'add', 'i', 'ls', 'list', 'view', 'info'].includes(first)) {
      return { runner: inv.tool, script: first };
    }
    return null;
  }
  if (inv.tool === 'make' || inv.tool === 'gmake') return { runner: 'make', script: positional[0] ?? '' };
  return null;
}
