import { cleanTerminalText, foldRuns, joinLines, lossy, makeView, splitLines } from './text.ts';
import type { CommandFilter } from './types.ts';

/** The fallback for commands no family understands: ANSI colours and carriage-return progress redraws go, and runs
 * of identical lines or lines differing only in numbers fold. Not matched by findFilter: the runtime applies it
 * explicitly, because no filter should claim arbitrary commands for the rewriter. */
export const genericFilter: CommandFilter = {
  name: 'generic',
  matches: () => true,
  apply(output) {
    const clean = (text: string): string => joinLines(foldRuns(splitLines(cleanTerminalText(text))));
    return makeView('generic', output, lossy(clean(output.stdout)), lossy(clean(output.stderr)));
  },
};
