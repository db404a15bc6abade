/**
 * What one filter file would show for one output, decided as the runtime decides it: the filter's stages, each
 * stream that does not pay with its retrieval line kept raw (`makeView`), then the one arbitration (shorter, and by
 * the margin a lossy view needs). For the tools that judge a filter file outside the hook path (`tokenless filters
 * try`, `syt discover`'s ranking), so their verdict is the hook's.
 */
import { viewStreams, type FileFilter } from '../filters/file/filter.ts';
import { lossy, makeView } from '../filters/text.ts';
import type { CommandOutput } from '../filters/types.ts';
import type { StreamCandidate } from '../reduce/stream.ts';
import { arbitrate } from './arbitrate.ts';

export type FileFilterVerdict =
  | { readonly kind: 'shown'; readonly candidate: StreamCandidate }
  | { readonly kind: 'not-smaller' }
  | { readonly kind: 'out-of-budget' };

export function fileFilterVerdict(filter: FileFilter, output: CommandOutput): FileFilterVerdict {
  const view = viewStreams(filter, output);
  if (view === null) return { kind: 'out-of-budget' };
  const candidate = makeView(`file:${filter.name}`, output, lossy(view.stdout), lossy(view.stderr));
  if (candidate === null || arbitrate(output.stdout + output.stderr, [candidate]) === null) return { kind: 'not-smaller' };
  return { kind: 'shown', candidate };
}
