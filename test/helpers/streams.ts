import type { CommandOutput, FilteredStream, StreamCandidate } from '../../src/filters/types.ts';
import type { ReduceContext } from '../../src/reduce/context.ts';
import { retrievalLine, stashKeyFor } from '../../src/store/marker.ts';

/** The context filters get by default (loadConfig with no config file and no environment override). */
export const DEFAULT_CONTEXT: ReduceContext = { searchPathSharing: true };

/** A filter's candidate read back per stream: each stream's view without its retrieval line, and whether it had one
 * (naming that raw stream, which the candidate stashes). */
export interface StreamViews {
  readonly filter: string;
  readonly stdout: FilteredStream;
  readonly stderr: FilteredStream;
}

export function streamViews(candidate: StreamCandidate | null | undefined, output: Pick<CommandOutput, 'stdout' | 'stderr'>): StreamViews | null {
  if (candidate === null || candidate === undefined) return null;
  const read = (shown: string, raw: string): FilteredStream => {
    const key = stashKeyFor(raw);
    const line = retrievalLine(key);
    if (!shown.endsWith(line) || !candidate.stash.some((entry) => entry.key === key)) return { text: shown, lossy: false };
    return { text: shown.slice(0, -line.length), lossy: true };
  };
  return { filter: candidate.filter, stdout: read(candidate.stdout, output.stdout), stderr: read(candidate.stderr, output.stderr) };
}

/** Applies a filter the way the run view does and reads its candidate back per stream. */
export function applyFilter(filter: { apply(output: CommandOutput, context: ReduceContext): StreamCandidate | null } | null | undefined, output: CommandOutput, context: ReduceContext = DEFAULT_CONTEXT): StreamViews | null {
  return streamViews(filter?.apply(output, context), output);
}
