/** A command's captured output, as the `run` wrapper or `tokenless filter` hands it to a filter. */
export interface CommandOutput {
  /** argv of the real program (argv[0] is the program as typed, e.g. `git`, `npx`, `./node_modules/.bin/vitest`). */
  readonly argv: readonly string[];
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/** One stream after filtering. `lossy` means something was dropped or summarised: the runtime then stashes the raw
 * stream and appends a retrieval marker, so filters never build markers themselves. */
export interface FilteredStream {
  readonly text: string;
  readonly lossy: boolean;
}

export interface FilterView {
  /** Registry name of the filter that produced the view, e.g. `git-status`. */
  readonly filter: string;
  readonly stdout: FilteredStream;
  readonly stderr: FilteredStream;
}

/** A command-output filter: pure, never throws on odd input (returns null instead), never invents content. */
export interface CommandFilter {
  readonly name: string;
  /** Whether this filter understands the program and arguments; the rewriter only wraps commands some filter matches. */
  matches(argv: readonly string[]): boolean;
  apply(output: CommandOutput): FilterView | null;
}
