/**
 * A deliberately small subset of the read-only commands Claude Code 2.1.332 runs without asking in the default
 * permission mode (observed: git status/diff/log, ls -la, grep -rn, cat and find inside the project ran silently;
 * `cat /etc/hostname`, npm test and curl asked). Anything outside this subset is "would ask", which only costs us a
 * rewrite, never the user's safety.
 *
 * Every option is looked up in a per-command table (like the client's own `safeFlags` lists): an option that is not
 * listed, an abbreviated long option (GNU getopt and git accept unique prefixes, so `--files0=` is `--files0-from=`),
 * or an option that writes, executes or reads a list of file names (`wc --files0-from`, `find -exec/-delete/-fprint`,
 * `git diff --output/--no-index/-O`) means "not auto-allowed". Option arguments that name a file (`grep -f F`,
 * `--exclude-from=F`, `find -newer F`) are checked against the project directory exactly like positional operands.
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';

/** none: a switch. value: an argument that names no file. path: an argument naming a file that is read. attached: only `--x=v` / `-xv`. */
type Arg = 'none' | 'value' | 'path' | 'attached';

interface OptionTable {
  readonly short: Readonly<Record<string, Arg>>;
  readonly long: Readonly<Record<string, Arg>>;
  /** `-5` means a count (head, tail, grep context, git log). */
  readonly numeric?: boolean;
}

const flags = (chars: string): Record<string, Arg> => Object.fromEntries([...chars].map((char) => [char, 'none' as const]));
const longFlags = (names: string): Record<string, Arg> => Object.fromEntries(names.split(' ').map((name) => [name, 'none' as const]));

const LS: OptionTable = {
  short: { ...flags('aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1'), I: 'value', T: 'value', w: 'value' },
  long: {
    ...longFlags(
      'all almost-all author escape ignore-backups directory dired classify file-type full-time group-directories-first no-group human-readable si dereference-command-line dereference-command-line-symlink-to-dir dereference inode kibibytes literal numeric-uid-gid hide-control-chars show-control-chars quote-name reverse recursive size context zero help version',
    ),
    'block-size': 'value', ignore: 'value', hide: 'value', tabsize: 'value', width: 'value', format: 'value', sort: 'value',
    time: 'value', 'time-style': 'value', 'quoting-style': 'value', 'indicator-style': 'value', color: 'attached', hyperlink: 'attached',
  },
};

const CAT: OptionTable = {
  short: flags('AbeEnstTuv'),
  long: longFlags('show-all number-nonblank show-ends number squeeze-blank show-tabs show-nonprinting help version'),
};

const HEAD: OptionTable = {
  short: { ...flags('qvz'), c: 'value', n: 'value' },
  long: { ...longFlags('quiet silent verbose zero-terminated help version'), bytes: 'value', lines: 'value' },
  numeric: true,
};

// No -f/-F/--follow/--retry/--pid/-s: a follow never ends, and a hung wrapper is nothing we want to approve.
const TAIL: OptionTable = HEAD;

// No --files0-from: the file it reads holds further file names, which no check of ours can see.
const WC: OptionTable = {
  short: flags('cmlLw'),
  long: { ...longFlags('bytes chars lines max-line-length words help version'), total: 'value' },
};

const GREP: OptionTable = {
  short: { ...flags('EFGPiyvwxcLloqsbHhnTZzaIrRU'), e: 'value', f: 'path', m: 'value', A: 'value', B: 'value', C: 'value', d: 'value' },
  long: {
    ...longFlags(
      'extended-regexp fixed-strings basic-regexp perl-regexp ignore-case no-ignore-case invert-match word-regexp line-regexp count files-without-match files-with-matches only-matching quiet silent no-messages byte-offset with-filename no-filename line-number initial-tab null null-data no-group-separator text recursive dereference-recursive line-buffered binary help version',
    ),
    regexp: 'value', file: 'path', 'max-count': 'value', 'after-context': 'value', 'before-context': 'value', context: 'value',
    label: 'value', 'group-separator': 'value', 'binary-files': 'value', directories: 'value', exclude: 'value',
    'exclude-from': 'path', 'exclude-dir': 'value', include: 'value', color: 'attached', colour: 'attached',
  },
  numeric: true,
};

const PWD: OptionTable = { short: flags('LP'), long: longFlags('logical physical help version') };

/**
 * Options every one of git diff, log and show understand the same way (diff output format and selection). git's
 * arguments count as attached only (`-n5`, `--format=x`): a separate word is then checked as a path, which can only
 * refuse more, never less (several git options take an optional argument, so the next word may be a pathspec).
 */
const GIT_DIFF_OPTIONS: OptionTable = {
  short: { ...flags('puswbaRz'), U: 'attached', M: 'attached', C: 'attached', B: 'attached', l: 'attached', S: 'attached', G: 'attached' },
  long: {
    ...longFlags(
      'patch no-patch raw patch-with-raw patch-with-stat numstat shortstat summary name-only name-status minimal patience histogram no-color color-words no-renames check full-index binary text ignore-all-space ignore-space-change ignore-space-at-eol ignore-cr-at-eol ignore-blank-lines ignore-submodules no-textconv no-ext-diff pickaxe-all pickaxe-regex quiet exit-code compact-summary irreversible-delete find-copies-harder',
    ),
    stat: 'attached', dirstat: 'attached', unified: 'attached', 'diff-algorithm': 'attached', color: 'attached', 'word-diff': 'attached',
    'word-diff-regex': 'attached', abbrev: 'attached', 'find-renames': 'attached', 'find-copies': 'attached', 'break-rewrites': 'attached',
    'diff-filter': 'attached', relative: 'attached', 'src-prefix': 'attached', 'dst-prefix': 'attached', 'no-prefix': 'none', 'inter-hunk-context': 'attached',
    'function-context': 'none', 'stat-width': 'attached', 'stat-name-width': 'attached', 'stat-count': 'attached', 'color-moved': 'attached',
  },
};

const GIT_LOG_OPTIONS: OptionTable = {
  short: { ...GIT_DIFF_OPTIONS.short, n: 'attached', i: 'none', E: 'none', F: 'none', P: 'none', m: 'none', c: 'none', t: 'none', r: 'none' },
  long: {
    ...GIT_DIFF_OPTIONS.long,
    ...longFlags(
      'oneline all graph reverse first-parent merges no-merges follow abbrev-commit no-abbrev-commit no-decorate source topo-order date-order author-date-order left-right cherry-pick cherry-mark boundary ancestry-path simplify-by-decoration full-history dense sparse simplify-merges show-signature no-walk do-walk regexp-ignore-case extended-regexp fixed-strings perl-regexp all-match invert-grep remove-empty parents children mailmap no-mailmap use-mailmap log-size full-diff no-notes combined-diff dense-combined',
    ),
    'max-count': 'attached', skip: 'attached', since: 'attached', after: 'attached', until: 'attached', before: 'attached', author: 'attached',
    committer: 'attached', grep: 'attached', 'grep-reflog': 'attached', branches: 'attached', tags: 'attached', remotes: 'attached',
    // Not --format/--pretty: the client asks about `git log --format=%B` (permission differential).
    decorate: 'attached', date: 'attached', 'min-parents': 'attached', 'max-parents': 'attached',
    'max-age': 'attached', 'min-age': 'attached', encoding: 'attached', 'diff-merges': 'attached',
  },
  numeric: true,
};

const GIT_DIFF: OptionTable = {
  short: GIT_DIFF_OPTIONS.short,
  long: { ...GIT_DIFF_OPTIONS.long, ...longFlags('cached staged merge-base') },
};

const GIT_STATUS: OptionTable = {
  // Not -u/--untracked-files: the client asks about `git status -u` (permission differential).
  short: flags('sbvz'),
  long: {
    ...longFlags('short branch long verbose no-column ahead-behind no-ahead-behind renames no-renames show-stash null'),
    porcelain: 'attached', ignored: 'attached', 'ignore-submodules': 'attached', column: 'attached',
    'find-renames': 'attached',
  },
};

const GIT: Readonly<Record<string, OptionTable>> = { status: GIT_STATUS, diff: GIT_DIFF, log: GIT_LOG_OPTIONS, show: GIT_LOG_OPTIONS };
const PLAIN: Readonly<Record<string, OptionTable>> = { ls: LS, cat: CAT, head: HEAD, tail: TAIL, wc: WC, grep: GREP, pwd: PWD };

/**
 * argv holds literal words (quotes removed); projectDir and cwd are absolute (cwd defaults to projectDir). Relative
 * operands resolve against cwd, and cwd itself must be inside the project (an empty operand list means cwd).
 */
export function isReadOnlyAutoAllowed(argv: readonly string[], projectDir: string, cwd: string = projectDir): boolean {
  const [program, ...args] = argv;
  if (program === undefined || !insideProject(cwd, projectDir, projectDir)) return false;
  const inside = (path: string): boolean => insideProject(path, cwd, projectDir);
  if (program === 'find') return findAllowed(args, inside);
  if (program === 'git') {
    const [sub, ...rest] = args;
    const table = sub === undefined ? undefined : own(GIT, sub);
    const parsed = table === undefined ? null : parseOptions(rest, table, inside);
    return parsed !== null && parsed.operands.every(inside);
  }
  const table = own(PLAIN, program);
  const parsed = table === undefined ? null : parseOptions(args, table, inside);
  if (parsed === null) return false;
  if (program === 'pwd') return parsed.operands.length === 0;
  // grep's first operand is the pattern unless -e/-f gave one; only the rest are paths.
  const operands = program === 'grep' && !parsed.patternGiven ? parsed.operands.slice(1) : parsed.operands;
  return operands.every(inside);
}

interface Parsed {
  readonly operands: string[];
  /** -e, -f, --regexp or --file appeared (grep: every operand is then a path). */
  readonly patternGiven: boolean;
}

/** GNU-style option parsing (permuted operands, bundled short switches, `--` ends options); null: refuse. */
function parseOptions(args: readonly string[], table: OptionTable, inside: (path: string) => boolean): Parsed | null {
  const operands: string[] = [];
  let patternGiven = false;
  const accept = (kind: Arg, value: string): boolean => kind !== 'path' || inside(value);
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    if (arg === '--') {
      operands.push(...args.slice(index + 1));
      break;
    }
    if (arg === '-' || !arg.startsWith('-')) {
      operands.push(arg);
    } else if (arg.startsWith('--')) {
      const equals = arg.indexOf('=');
      const name = equals === -1 ? arg.slice(2) : arg.slice(2, equals);
      const kind = own(table.long, name);
      if (kind === undefined || (kind === 'none' && equals !== -1)) return null;
      if (name === 'regexp' || name === 'file') patternGiven = true;
      if (kind === 'value' || kind === 'path') {
        const value = equals === -1 ? args[(index += 1)] : arg.slice(equals + 1);
        if (value === undefined || !accept(kind, value)) return null;
      }
    } else if (table.numeric === true && /^-\d+$/.test(arg)) {
      continue;
    } else {
      for (let at = 1; at < arg.length; at += 1) {
        const char = arg[at] ?? '';
        const kind = own(table.short, char);
        if (kind === undefined) return null;
        if (kind === 'none') continue;
        if (char === 'e' || char === 'f') patternGiven = true;
        const attached = arg.slice(at + 1);
        if (kind === 'attached') break;
        const value = attached !== '' ? attached : args[(index += 1)];
        if (value === undefined || !accept(kind, value)) return null;
        break;
      }
    }
  }
  return { operands, patternGiven };
}

/** find's tests and actions that only read names and metadata, with how many arguments each takes. */
const FIND_PRIMARIES: Readonly<Record<string, Arg>> = {
  ...longFlags(
    'print print0 ls prune quit true false empty readable writable executable nouser nogroup depth follow xdev mount noleaf ignore_readdir_race noignore_readdir_race daystart warn nowarn a and o or not',
  ),
  name: 'value', iname: 'value', path: 'value', ipath: 'value', wholename: 'value', iwholename: 'value', regex: 'value',
  iregex: 'value', regextype: 'value', lname: 'value', ilname: 'value', type: 'value', xtype: 'value', size: 'value',
  mtime: 'value', mmin: 'value', atime: 'value', amin: 'value', ctime: 'value', cmin: 'value', used: 'value', perm: 'value',
  user: 'value', group: 'value', uid: 'value', gid: 'value', links: 'value', inum: 'value', maxdepth: 'value',
  mindepth: 'value', printf: 'value', fstype: 'value', context: 'value', newer: 'path', anewer: 'path', cnewer: 'path',
  samefile: 'path',
};

/**
 * `find [-H|-L|-P] [-D opts] [-Olevel] [start…] [expression]`: start points are paths, every expression word must be a
 * listed primary or operator. Everything else (-exec, -execdir, -ok, -okdir, -delete, -fprint*, -fls, -files0-from) refuses.
 */
function findAllowed(args: readonly string[], inside: (path: string) => boolean): boolean {
  let index = 0;
  while (index < args.length && /^-([HLP]|O\d)$/.test(args[index] ?? '')) index += 1;
  if (args[index] === '-D') index += 2;
  for (; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    if (arg.startsWith('-') || arg === '(' || arg === '!' || arg === ')' || arg === ',') break;
    if (!inside(arg)) return false;
  }
  for (; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    if (arg === '(' || arg === ')' || arg === '!' || arg === ',') continue;
    const name = arg.startsWith('-') ? arg.slice(1) : '';
    const newer = /^newer[aBcm]([aBcm]|t)$/.exec(name);
    const kind = newer !== null ? (newer[1] === 't' ? 'value' : 'path') : own(FIND_PRIMARIES, name);
    if (kind === undefined) return false;
    if (kind === 'none') continue;
    const value = args[(index += 1)];
    if (value === undefined || (kind === 'path' && !inside(value))) return false;
  }
  return true;
}

/** A table entry by name; `constructor` or `__proto__` typed by the model is not an entry. */
function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * Inside projectDir once resolved against base, with symbolic links followed as the client follows them (a link in
 * the project to /etc is outside). `~`, glob characters and `..` segments are never assumed to stay inside: the
 * client refuses "'..' traversal after a directory segment" (permission differential).
 */
function insideProject(path: string, base: string, projectDir: string): boolean {
  if (path.startsWith('~') || /[*?[]/.test(path) || path.split('/').includes('..')) return false;
  const target = isAbsolute(path) ? path : resolve(base, path);
  const within = (dir: string, to: string): boolean => {
    const rel = relative(dir, to);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  };
  if (!within(projectDir, target)) return false;
  const real = realPath(target);
  return real !== null && within(realPath(projectDir) ?? projectDir, real);
}

/** The real path of `path`, or of its deepest existing ancestor with the rest appended; null when nothing resolves. */
function realPath(path: string): string | null {
  const rest: string[] = [];
  for (let at = path; ; at = dirname(at)) {
    try {
      return join(realpathSync.native(at), ...rest.reverse());
    } catch {
      if (dirname(at) === at) return null;
      rest.push(basename(at));
    }
  }
}
