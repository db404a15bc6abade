/**
 * `syt analyze --log`'s replay figures: the session replay's per-call results (session-replay.ts) summed over
 * transcripts, by what shortened each output. One engine with `npm run bench:sessions` and `syt cost history`, so a
 * person and the benchmark get the same answer for the same session in the same permission mode.
 */
import type { CallReplay, ReplayMode } from './session-replay.ts';

export interface ReplayRow {
  readonly operation: string;
  readonly outputs: number;
  readonly before: number;
  readonly after: number;
}

export interface ReplaySummary {
  readonly mode: ReplayMode;
  readonly tool_outputs: number;
  /** Outputs our hooks shortened. */
  readonly shortened: number;
  readonly before_tokens: number;
  readonly after_tokens: number;
  readonly saved_tokens: number;
  readonly by_operation: readonly ReplayRow[];
  readonly note: string;
}

export function replayNote(mode: ReplayMode): string {
  return (
    `Replayed offline through the hooks \`syt init\` installs for Claude Code (PreToolUse, PostToolUse), permission mode ${mode}: ` +
    'each tool output as the transcript recorded it (other agents\u2019 shell commands as Bash calls, file reads as Read calls); ' +
    'tokens counted with o200k. Only the first sending of each output is counted, not its re-reads from cache in later requests; ' +
    'retrieval of elided parts would cost extra tokens.'
  );
}

export function summarizeOutputs(calls: readonly CallReplay[], mode: ReplayMode): ReplaySummary {
  const rows = new Map<string, ReplayRow>();
  let outputs = 0;
  let shortened = 0;
  let before = 0;
  let after = 0;
  for (const call of calls) {
    if (!call.ran || call.before === 0) continue;
    // A result that grew is shown as recorded: the hook's answer would not be used for it (never worse than raw).
    const a = Math.min(call.before, call.after);
    outputs += 1;
    before += call.before;
    after += a;
    if (a < call.before) shortened += 1;
    const op = a < call.before ? (call.viewKind ?? 'unchanged') : 'unchanged';
    const row = rows.get(op) ?? { operation: op, outputs: 0, before: 0, after: 0 };
    rows.set(op, { operation: op, outputs: row.outputs + 1, before: row.before + call.before, after: row.after + a });
  }
  return {
    mode,
    tool_outputs: outputs,
    shortened,
    before_tokens: before,
    after_tokens: after,
    saved_tokens: before - after,
    by_operation: [...rows.values()].sort((x, y) => y.before - y.after - (x.before - x.after)),
    note: replayNote(mode),
  };
}
