/**
 * Session chains for `tokenless stats diff --session`: the stages one tool use went through (the `run` wrapper's
 * filter, then post_tool's compressors), in order. A stage is linked to the next only when the digest of its output
 * is the digest of the next stage's input; otherwise the chain says it is broken there, rather than implying a
 * pipeline that did not happen (a host cut or an edit in between breaks the link). No text is kept to diff.
 */
import type { StoredStatsRow } from './stats.ts';

export interface ChainStage {
  readonly id: number;
  readonly lifecycle: string;
  readonly operation: string;
  readonly mode: string;
  readonly beforeTokens: number;
  readonly afterTokens: number;
  /** True when this stage's output digest equals the next stage's input digest (false for the last stage). */
  readonly linkedToNext: boolean;
  /** Line counts of input and output (null on rows recorded before stats.db dropped the texts). */
  readonly beforeLines: number | null;
  readonly afterLines: number | null;
}

export interface Chain {
  /** The tool use id, or `record:<id>` for a row without one. */
  readonly toolUseId: string;
  readonly toolName: string | null;
  readonly stages: ChainStage[];
  /** Before of the first stage to after of the last, counted only over linked stages. */
  readonly endToEnd: { readonly beforeTokens: number; readonly afterTokens: number; readonly complete: boolean };
}

/** Groups a session's rows (oldest first) into chains per tool use, in order of first appearance. */
export function buildChains(rows: readonly StoredStatsRow[]): Chain[] {
  const groups = new Map<string, StoredStatsRow[]>();
  for (const row of rows) {
    const key = row.tool_use_id ?? `record:${row.id}`;
    const list = groups.get(key);
    if (list === undefined) groups.set(key, [row]);
    else list.push(row);
  }
  return [...groups.entries()].map(([toolUseId, list]) => chainOf(toolUseId, list));
}

function chainOf(toolUseId: string, rows: readonly StoredStatsRow[]): Chain {
  const stages = rows.map((row, i): ChainStage => {
    const next = rows[i + 1];
    return {
      id: row.id,
      lifecycle: row.lifecycle,
      operation: row.operation,
      mode: row.mode,
      beforeTokens: row.before_tokens,
      afterTokens: row.after_tokens,
      linkedToNext: next !== undefined && linked(row, next),
      beforeLines: row.before_lines,
      afterLines: row.after_lines,
    };
  });
  const first = rows[0];
  const last = rows.at(-1);
  return {
    toolUseId,
    toolName: first?.tool_name ?? null,
    stages,
    endToEnd: {
      beforeTokens: first?.before_tokens ?? 0,
      afterTokens: last?.after_tokens ?? 0,
      complete: stages.slice(0, -1).every((stage) => stage.linkedToNext),
    },
  };
}

/** Equal SHA-256 prefixes (96 bits): a row without digests (recorded before they existed) proves no link. */
function linked(row: StoredStatsRow, next: StoredStatsRow): boolean {
  return row.after_digest !== null && row.after_digest === next.before_digest;
}
