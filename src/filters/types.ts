import type { ReduceContext } from '../reduce/context.ts';
import type { StreamCandidate } from '../reduce/stream.ts';

export type { FilteredStream, StreamCandidate } from '../reduce/stream.ts';

/** A command's captured output, as the `run` wrapper or `tokenless filter` hands it to a filter. */
export interface CommandOutput {
  /** argv of the real program (argv[0] is the program as typed, e.g. `git`, `npx`, `./node_modules/.bin/vitest`). */
  readonly argv: readonly string[];
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/**
 * A command-output filter: pure, never throws on odd input (returns null instead: it declines output it does not
 * recognise), never invents content. It proposes a candidate like a content compressor does; the runtime alone
 * arbitrates, stashes and records.
 */
export interface CommandFilter {
  readonly name: string;
  /** Whether this filter understands the program and arguments; the rewriter only wraps commands some filter matches. */
  matches(argv: readonly string[]): boolean;
  apply(output: CommandOutput, context: ReduceContext): StreamCandidate | null;
}
