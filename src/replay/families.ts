/**
 * Command families of the session benchmark's tables: which kind of work a Bash line did, judged by the program that
 * produced its output (the first stage of the first pipeline that is not set-up such as `cd` or `export`).
 */
import { resolveWrappers } from '../permissions/shell-state.ts';
import { parseShell } from '../shell/parse.ts';
import { literalValue } from '../shell/word.ts';

export const FAMILIES = ['git', 'test', 'build', 'fs', 'search', 'read', 'other'] as const;
export type Family = (typeof FAMILIES)[number];

export const FAMILY_LABELS: Record<Family, string> = {
  git: 'git',
  test: 'test runners',
  build: 'build, lint, install',
  fs: 'fs listings',
  search: 'search',
  read: 'reads through the shell',
  other: 'other',
};

const SETUP = new Set(['cd', 'pushd', 'export', 'source', '.', 'set', 'unset', 'sleep', 'mkdir', 'true', ':']);
/** Launchers whose next word names the real tool. */
const LAUNCHERS = new Set(['npx', 'pnpx', 'bunx', 'rtk', 'uvx', 'poetry', 'pipenv', 'time']);
const SEARCH = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack']);
const FS = new Set(['ls', 'find', 'tree', 'du', 'df', 'wc', 'fd', 'stat', 'file', 'realpath', 'readlink']);
const READ = new Set(['cat', 'head', 'tail', 'sed', 'nl', 'less', 'more', 'bat', 'jq', 'awk', 'xxd', 'od', 'column']);
const TEST = new Set(['pytest', 'vitest', 'jest', 'mocha', 'rspec', 'phpunit', 'ava', 'tap', 'playwright', 'cypress', 'karma']);
const BUILD = new Set([
  'tsc', 'eslint', 'ruff', 'biome', 'pylint', 'mypy', 'pyright', 'prettier', 'webpack', 'vite', 'esbuild', 'rollup', 'next',
  'gradle', 'mvn', 'cmake', 'ninja', 'gcc', 'clang', 'rustc', 'pip', 'pip3', 'black', 'flake8', 'isort', 'turbo', 'nx', 'tsup',
]);
const SCRIPT_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'deno']);

export function commandFamily(line: string): Family {
  const argv = producerArgv(line);
  return argv === null ? 'other' : familyOf(argv);
}

function producerArgv(line: string): string[] | null {
  const parsed = parseShell(line);
  if (parsed.kind !== 'parsed') return null;
  for (const chain of parsed.script.list.items) {
    for (const pipeline of chain.pipelines) {
      const first = pipeline.commands[0];
      if (first?.kind !== 'simple') continue;
      const resolved = resolveWrappers(first.words);
      const from = resolved.ok ? resolved.programIndex : 0;
      const argv = first.words.slice(from).map((word) => literalValue(word.text) ?? '');
      const program = basename(argv[0] ?? '');
      if (program === '' || SETUP.has(program)) continue;
      return argv;
    }
  }
  return null;
}

function familyOf(full: readonly string[]): Family {
  let argv = full.map((word, i) => (i === 0 ? basename(word) : word));
  for (let depth = 0; depth < 3 && LAUNCHERS.has(argv[0] ?? ''); depth += 1) argv = argv.slice(1).filter((word, i) => i > 0 || !word.startsWith('-'));
  const [program = '', sub = '', third = ''] = argv;
  if (/^python[0-9.]*$/.test(program) && sub === '-m') return familyOf(argv.slice(2));
  if ((program === 'uv' || program === 'poetry') && sub === 'run') return familyOf(argv.slice(2));
  if (program === 'git') return sub === 'grep' ? 'search' : 'git';
  if (SEARCH.has(program)) return 'search';
  if (FS.has(program)) return 'fs';
  if (READ.has(program)) return 'read';
  if (TEST.has(program) || program === 'unittest') return 'test';
  if (BUILD.has(program)) return 'build';
  if (program === 'go' || program === 'cargo' || program === 'dotnet' || program === 'swift') return sub === 'test' ? 'test' : ['build', 'vet', 'check', 'clippy', 'fmt', 'install'].includes(sub) ? 'build' : 'other';
  if (program === 'make') return /test|check/.test(sub) ? 'test' : 'build';
  if (SCRIPT_RUNNERS.has(program)) {
    const script = sub === 'run' || sub === 'run-script' ? third : sub;
    if (/^test/.test(script) || script === 't') return 'test';
    if (['exec', 'dlx', 'x'].includes(sub)) return familyOf(argv.slice(2));
    if (/^(build|lint|typecheck|type-check|check|format|compile|install|i|ci|add|tsc)/.test(script)) return 'build';
    return 'other';
  }
  return 'other';
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
