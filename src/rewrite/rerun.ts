/**
 * Is this command line a re-run of one whose view the agent was just shown? An agent that could not find what it
 * needed in a view runs the command again: the same line, the same program and arguments with a different limiter
 * (`| head`, `--verbose`, `-v`, `--no-pager`, a redirection), or a `cat` of the file the view showed. Pure and cheap:
 * it runs on every pre_tool call of a session that has views, so it is a small tokenizer, not the shell parser.
 */

/** What a view is remembered by: the identity of the command line that produced it and the files it named. */
export interface ViewIdentity {
  readonly identity: string;
  readonly files: readonly string[];
}

/** Flags that change how much a command prints, not what it is about. */
const LIMITER_FLAGS: ReadonlySet<string> = new Set([
  '-v', '-vv', '-vvv', '--verbose', '--no-pager', '-q', '--quiet', '--silent', '-s', '--no-color', '--color',
  '--full', '--no-truncate', '--no-trunc', '--stat', '--oneline',
]);
const LIMITER_PREFIXES = ['--color=', '--format=', '--pretty=', '--reporter=', '--max-count=', '-n=', '--limit=', '--tail='];
/** Programs that only print files: `cat X` after a view of a command over X reads what the view held back. */
const FILE_READERS: ReadonlySet<string> = new Set(['cat', 'head', 'tail', 'less', 'more', 'bat', 'nl', 'sed', 'awk']);
/** Wrappers in front of the program that do not change what it prints. */
const TRANSPARENT: ReadonlySet<string> = new Set(['command', 'builtin', 'exec', 'time', 'nice', 'nohup', 'stdbuf']);

/** Top-level commands of a line, each as its words; pipelines keep only their first stage (the producer). */
export function producers(line: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  let skipStage = false;
  const endWord = (): void => {
    if (inWord && !skipStage) words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = (nextIsStage: boolean): void => {
    endWord();
    if (!skipStage && words.length > 0) commands.push(words);
    words = [];
    skipStage = nextIsStage;
  };
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i] ?? '';
    if (quote !== null) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word += line[(i += 1)] ?? '';
      else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
      continue;
    }
    if (c === '\\' && i + 1 < line.length) {
      word += line[(i += 1)] ?? '';
      inWord = true;
      continue;
    }
    if (c === ' ' || c === '\t') {
      endWord();
      continue;
    }
    if (c === '\n' || c === ';' || c === '(' || c === ')' || c === '{' || c === '}') {
      endCommand(false);
      continue;
    }
    if (c === '&' || c === '|') {
      const doubled = line[i + 1] === c;
      // `2>&1` and `>&2` are redirections, kept inside the word.
      if (c === '&' && (word.endsWith('>') || word.endsWith('<'))) {
        word += c;
        inWord = true;
        continue;
      }
      if (doubled) i += 1;
      // A single `|` starts a later pipeline stage, which only filters the producer's output.
      endCommand(c === '|' && !doubled ? true : false);
      continue;
    }
    word += c;
    inWord = true;
  }
  endCommand(false);
  return commands;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const REDIRECTION = /^[0-9]*(>>?|<|&>)(.*)$/;

/** The words that say what a command is about: no env assignments, redirections, transparent wrappers or limiters. */
export function coreWords(words: readonly string[]): string[] {
  const core: string[] = [];
  let leading = true;
  for (let i = 0; i < words.length; i += 1) {
    const w = words[i] ?? '';
    if (leading && ASSIGNMENT.test(w)) continue;
    if (leading && TRANSPARENT.has(w)) continue;
    leading = false;
    const redirect = REDIRECTION.exec(w);
    if (redirect !== null) {
      // `> file` names its target in the next word; `>file` and `2>&1` carry it.
      if ((redirect[2] ?? '') === '') i += 1;
      continue;
    }
    if (LIMITER_FLAGS.has(w) || LIMITER_PREFIXES.some((prefix) => w.startsWith(prefix))) continue;
    core.push(w);
  }
  return core;
}

/** The identity of a command's argv (as `tokenless run` received it) and the files it named. */
export function identityOfArgv(argv: readonly string[]): ViewIdentity {
  const core = coreWords(argv);
  return { identity: core.join(' '), files: core.slice(1).filter(looksLikeFile) };
}

function looksLikeFile(word: string): boolean {
  return !word.startsWith('-') && (word.includes('/') || /\.[A-Za-z0-9]{1,8}$/.test(word));
}

/** The identities of a typed line's producers, and the files each pure file reader in it prints. */
export interface LineIdentity {
  readonly identities: readonly string[];
  readonly readFiles: readonly string[];
}

export function identityOfLine(line: string): LineIdentity {
  const identities: string[] = [];
  const readFiles: string[] = [];
  for (const words of producers(line)) {
    const core = coreWords(words);
    if (core.length === 0) continue;
    identities.push(core.join(' '));
    const program = baseName(core[0] ?? '');
    if (FILE_READERS.has(program)) readFiles.push(...core.slice(1).filter((word) => !word.startsWith('-') && looksLikeFile(word)));
  }
  return { identities, readFiles };
}

function baseName(program: string): string {
  const slash = program.lastIndexOf('/');
  return slash === -1 ? program : program.slice(slash + 1);
}

/** A view the session was shown, as the ledger remembers it. */
export interface RecentView extends ViewIdentity {
  readonly key: string;
  readonly kind: string;
  readonly at: number;
  readonly tokens?: number | undefined;
  readonly project?: string | undefined;
}

export type RerunMatch = { readonly view: RecentView; readonly how: 'same_line' | 'file_read' } | null;

/**
 * The most recent view, shown within `windowMs` before `now`, that this line re-runs: one of its producers has the
 * view's identity, or a file reader in it prints a file the view's command named.
 */
export function matchRerun(line: LineIdentity, views: readonly RecentView[], now: number, windowMs: number): RerunMatch {
  for (let i = views.length - 1; i >= 0; i -= 1) {
    const view = views[i];
    if (view === undefined || now - view.at > windowMs || view.at > now + 1000) continue;
    if (view.identity !== '' && line.identities.includes(view.identity)) return { view, how: 'same_line' };
    if (line.readFiles.some((file) => view.files.includes(file))) return { view, how: 'file_read' };
  }
  return null;
}
