// The inputs and the result of a pre_tool rewrite plan.

export interface RewriteOptions {
  /** Our binary, already shell-quoted and absolute; may be several words (`'/usr/bin/node' '/x/cli.js'`). */
  readonly wrapperCommand: string;
  /** Inserted as `NAME=value` before each wrapped command (TOKENLESS_AGENT_ID, TOKENLESS_SESSION_ID, …). */
  readonly attributionEnv: Readonly<Record<string, string>>;
  /** Whether some filter handles this program; argv holds the command's leading static words (see `staticPrefix`). */
  readonly isWrappable: (argv: readonly string[]) => boolean;
  /**
   * Wrap programs no filter knows too (issue 22): `tokenless run` then views their output by what it is, and a small
   * output comes back byte for byte. For a harness that wraps only what the agent's permissions let run anyway.
   */
  readonly wrapUnknown?: boolean;
  /** Program names (`docker`) or command prefixes (`git log`) the user never wants wrapped. */
  readonly exclude: readonly string[];
  /** Let the shell decide, by a `command -v` check in the line, whether a bare command name is a program (wrapped) or
   * an alias, function or builtin (run as typed). On unless false; off only to test the insertions on their own. */
  readonly resolveNamesInShell?: boolean;
}

export type SegmentAction = 'wrap' | 'keep';

/** One top-level command of the line (a simple command, or a whole subshell, group or test). */
export interface RewriteSegment {
  readonly source: string;
  readonly start: number;
  readonly end: number;
  readonly action: SegmentAction;
  readonly reason: string;
  /** For a wrapped segment: the argv whose filter views its output (the program's static words; for the last stage
   * of a pipeline that only selects lines, the producer's). Offline twins (`tokenless filter`, the session replay)
   * view captured output with it. */
  readonly viewArgv?: readonly string[];
}

/** Text spliced into the original command at `offset` (a UTF-16 index into the original). */
export interface RewriteInsertion {
  readonly offset: number;
  readonly text: string;
}

/** A wrapped command put inside a name check (see `resolveNamesInShell`): original offsets, and the name as typed. */
export interface RewriteGuard {
  readonly start: number;
  readonly end: number;
  readonly name: string;
}

export interface RewritePlan {
  /** The rewritten command, or null to leave the command untouched. */
  readonly command: string | null;
  readonly segments: readonly RewriteSegment[];
  /** Ascending by offset; applying them to the original gives `command` when there are no guards. */
  readonly insertions: readonly RewriteInsertion[];
  /** Ascending; each wrapped command inside a name check in `command`. */
  readonly guards: readonly RewriteGuard[];
  readonly reason: string;
}
