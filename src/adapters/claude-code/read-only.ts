/**
 * A deliberately small subset of the read-only commands Claude Code 2.1.332 runs without asking in the default
 * permission mode (observed: git status/diff/log, ls -la, grep -rn, cat and find inside the project ran silently;
 * `cat /etc/hostname`, npm test and curl asked). Anything outside this subset is "would ask", which only costs us a
 * rewrite, never the user's safety: a program here must not be able to write files or run other programs through any
 * flag we accept.
 */
import { isAbsolute, relative, resolve } from 'node:path';

/** Flags that make an otherwise read-only program write, execute or read elsewhere. */
const UNSAFE_FLAG = /^(--output|--ext-diff|--textconv|--exec|--pre\b|--pre=|-exec|-execdir|-ok|-okdir|-delete|-fprint|-fls|-fprintf|--upload-pack|--no-index|-c$|-C$|--git-dir|--work-tree|--config)/;

const GIT_READ = new Set(['status', 'diff', 'log', 'show']);
const PLAIN_READ = new Set(['ls', 'cat', 'head', 'tail', 'wc', 'grep', 'find', 'pwd']);

/** argv holds literal words (quotes removed); projectDir is absolute. */
export function isReadOnlyAutoAllowed(argv: readonly string[], projectDir: string): boolean {
  const [program, ...args] = argv;
  if (program === undefined || args.some((arg) => UNSAFE_FLAG.test(arg))) return false;
  if (program === 'git') {
    const [sub, ...rest] = args;
    return sub !== undefined && GIT_READ.has(sub) && rest.every((arg) => arg.startsWith('-') || insideProject(arg, projectDir));
  }
  if (!PLAIN_READ.has(program)) return false;
  // tail -f never ends; Claude Code would still run it, but a hung wrapper is nothing we want to approve.
  if (program === 'tail' && args.some((arg) => /^-[a-zA-Z]*[fF]/.test(arg) || arg === '--follow')) return false;
  const operands = program === 'grep' ? grepPaths(args) : args.filter((arg) => !arg.startsWith('-'));
  return operands.every((arg) => insideProject(arg, projectDir));
}

/** grep's first operand is the pattern unless -e/-f gave one; only the rest are paths. */
function grepPaths(args: readonly string[]): string[] {
  const operands = args.filter((arg) => !arg.startsWith('-'));
  const patternByFlag = args.some((arg) => arg === '-e' || arg === '-f' || arg.startsWith('--regexp') || arg.startsWith('--file'));
  if (args.some((arg) => arg === '-f' || arg.startsWith('--file'))) return ['/'];
  return patternByFlag ? operands : operands.slice(1);
}

function insideProject(path: string, projectDir: string): boolean {
  if (path.startsWith('~') || /[*?[]/.test(path)) return false;
  const target = isAbsolute(path) ? path : resolve(projectDir, path);
  const rel = relative(projectDir, target);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
