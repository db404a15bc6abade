import type { Disposition } from '../protocol/schemas.ts';
import { markersIn } from '../store/marker.ts';
import type { OperationRecord } from '../store/stats.ts';
import type { Adopted } from './arbitrate.ts';
import type { Runtime } from './runtime.ts';

/** Which call a commit belongs to, for the stats row and for authorising the markers it shows. */
export interface CommitMeta {
  readonly lifecycle: string;
  readonly agentId: string;
  readonly sessionId: string;
  readonly toolUseId?: string | undefined;
  readonly toolName?: string | undefined;
  readonly origin?: string | undefined;
  readonly contentType?: string | undefined;
  readonly project?: string | undefined;
}

export interface Committed {
  readonly disposition: Disposition;
  /** The text to show: the candidate's when applied, else the original. */
  readonly output: string;
  readonly stashKeys: readonly string[];
  readonly visibleMarkers: readonly string[];
  readonly reason?: string;
}

/**
 * Makes an adopted candidate real: stashes its originals (all or none), records the markers as shown in the
 * session, and writes the stats row. A stash failure turns the outcome into recoverability_unavailable and the
 * original is shown; a stats failure changes nothing.
 */
export function commit(runtime: Runtime, original: string, adopted: Adopted, meta: CommitMeta): Committed {
  const { candidate } = adopted;
  const dryRun = runtime.config.dryRun;
  const stashKeys = candidate.stash.map((entry) => entry.key);
  const shown = mintedMarkersIn(candidate.output, stashKeys);
  let stashWrites = 0;
  if (!dryRun && candidate.stash.length > 0) {
    try {
      const put = runtime.stash.put(candidate.stash);
      if (!put.ok) return unavailable(original, `stash refused ${put.key}: ${put.reason}`);
      stashWrites = put.written;
      runtime.stash.recordShown(meta.sessionId, shown);
    } catch (error) {
      return unavailable(original, `stash unavailable: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (runtime.recordsStats) runtime.stats.tryRecord([toRecord(original, adopted, meta, dryRun, stashKeys, stashWrites)]);
  if (dryRun) return { disposition: 'dry_run', output: original, stashKeys: [], visibleMarkers: [] };
  return { disposition: 'applied', output: candidate.output, stashKeys, visibleMarkers: shown };
}

/**
 * The markers this view shows that we minted for it. Marker text that was merely part of the content (a commit
 * message, a file, another session's output pasted in) is never proof the original was shown here: recording it
 * would let any session launder another's marker through a wrapped command (issue 15, item 9).
 */
export function mintedMarkersIn(output: string, minted: readonly string[]): string[] {
  const ours = new Set(minted);
  return markersIn(output).filter((key) => ours.has(key));
}

function unavailable(original: string, reason: string): Committed {
  return { disposition: 'recoverability_unavailable', output: original, stashKeys: [], visibleMarkers: [], reason };
}

function toRecord(
  original: string,
  adopted: Adopted,
  meta: CommitMeta,
  dryRun: boolean,
  stashKeys: readonly string[],
  stashWrites: number,
): OperationRecord {
  return {
    lifecycle: meta.lifecycle,
    operations: adopted.candidate.operations,
    agentId: meta.agentId,
    sessionId: meta.sessionId,
    toolUseId: meta.toolUseId,
    toolName: meta.toolName,
    origin: meta.origin,
    contentType: meta.contentType,
    mode: dryRun ? 'dry_run' : 'active',
    recoverability: adopted.candidate.recoverability,
    before: original,
    after: adopted.candidate.output,
    beforeTokens: adopted.beforeTokens,
    afterTokens: adopted.afterTokens,
    tokenMethod: 'estimated',
    stashKeys,
    stashWrites,
    project: meta.project,
  };
}
