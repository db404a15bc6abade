// The syntax tree of a bash command line. Every node keeps UTF-16 offsets into the source string, so a
// rewrite can splice text at a node boundary and leave every other character exactly as typed.

/** Something in a word that the shell expands or that we cannot evaluate without running the shell. */
export type WordFlag =
  | 'single-quote'
  | 'double-quote'
  | 'escape'
  | 'line-continuation'
  | 'ansi-c-quote'
  | 'locale-quote'
  | 'parameter'
  | 'command-substitution'
  | 'backtick'
  | 'arithmetic'
  | 'process-substitution'
  | 'glob'
  | 'brace'
  | 'tilde'
  | 'array-assignment';

/** Word flags plus what only a whole command can have. */
export type CommandFlag = WordFlag | 'heredoc' | 'herestring' | 'named-fd';

/** Flags of the whole line, so a caller can refuse a line without walking the tree. */
export type ScriptFlag = CommandFlag | 'comment' | 'subshell' | 'group' | 'arithmetic-command' | 'test-command';

export interface Word {
  /** The exact source text, quotes and escapes included. */
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly flags: readonly WordFlag[];
}

export type RedirectOp =
  | '<'
  | '>'
  | '>>'
  | '>|'
  | '<>'
  | '<&'
  | '>&'
  | '&>'
  | '&>>'
  | '<<'
  | '<<-'
  | '<<<';

export interface Heredoc {
  /** The delimiter after quote removal. */
  readonly delimiter: string;
  /** A quoted delimiter means the body is taken literally (no expansions). */
  readonly quoted: boolean;
  /** Span of the body lines including the closing delimiter line. */
  readonly bodyStart: number;
  readonly bodyEnd: number;
}

export interface Redirect {
  readonly start: number;
  readonly end: number;
  /** The explicit file descriptor (`2` in `2>&1`, `{fd}` for a named one), null when implied. */
  readonly fd: string | null;
  readonly op: RedirectOp;
  readonly target: Word;
  /** Filled once the body has been read (after the next newline). */
  heredoc: Heredoc | null;
}

export interface SimpleCommand {
  readonly kind: 'simple';
  readonly start: number;
  readonly end: number;
  /** Leading `NAME=value` words, in order. */
  readonly assignments: readonly Word[];
  /** The command name and its arguments. */
  readonly words: readonly Word[];
  /** Redirections wherever they appear in the command. */
  readonly redirects: readonly Redirect[];
  readonly flags: readonly CommandFlag[];
}

export interface CompoundCommand {
  readonly kind: 'subshell' | 'group' | 'arithmetic' | 'test';
  readonly start: number;
  readonly end: number;
  /** The inner list of `( … )` and `{ …; }`; null for `(( … ))` and `[[ … ]]`. */
  readonly body: List | null;
  readonly redirects: readonly Redirect[];
}

export type Command = SimpleCommand | CompoundCommand;

export type PipeOp = '|' | '|&';

export interface Pipeline {
  readonly start: number;
  readonly end: number;
  /** Led by `!`. */
  readonly negated: boolean;
  /** Led by the `time` keyword. */
  readonly timed: boolean;
  readonly commands: readonly Command[];
  /** `operators[i]` joins `commands[i]` and `commands[i + 1]`. */
  readonly operators: readonly PipeOp[];
}

export type AndOrOp = '&&' | '||';
export type ListTerminator = ';' | '&' | '\n';

/** Pipelines joined by `&&`/`||`; a trailing `&` sends the whole chain to the background. */
export interface AndOr {
  readonly start: number;
  readonly end: number;
  readonly pipelines: readonly Pipeline[];
  readonly operators: readonly AndOrOp[];
  readonly terminator: ListTerminator | null;
  readonly background: boolean;
}

export interface List {
  readonly items: readonly AndOr[];
}

export interface Script {
  readonly source: string;
  readonly list: List;
  readonly flags: readonly ScriptFlag[];
}

export type UnparseableCode =
  | 'unterminated-quote'
  | 'unterminated-substitution'
  | 'unterminated-heredoc'
  | 'unbalanced-parens'
  | 'unexpected-token'
  | 'unsupported-construct'
  | 'trailing-backslash'
  | 'too-deep'
  | 'internal-error';

export type ParseResult =
  | { readonly kind: 'parsed'; readonly script: Script }
  | { readonly kind: 'unparseable'; readonly code: UnparseableCode; readonly message: string; readonly offset: number };
