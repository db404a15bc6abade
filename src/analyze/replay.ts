/**
 * "What would have been saved": every tool output of a transcript replayed through our command filters (shell
 * tools with a static command line) or post_tool compressors (everything else). Runs against a Runtime the caller
 * opened on a throw-away data dir, so a replay never touches the user's stash or stats.
 */
import { postTool } from '../runtime/post-tool.ts';
import { viewRun } from '../runtime/run-view.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { staticArgv } from '../rewrite/static-argv.ts';
import type { ToolEvent, Transcript } from '../transcript/turns.ts';
import { shellOutputCap } from '../harness/registry.ts';

export interface ReplayRow {
  readonly operation: string;
  readonly outputs: number;
  readonly before: number;
  readonly after: number;
}

export interface ReplaySummary {
  readonly tool_outputs: number;
  /** Outputs our pipeline shortened. */
  readonly shortened: number;
  readonly before_tokens: number;
  readonly after_tokens: number;
  readonly saved_tokens: number;
  readonly by_operation: readonly ReplayRow[];
  readonly note: string;
}

export const REPLAY_NOTE =
  'Replayed offline: each tool output as the model saw it (Bash output capped at 30,000 characters, as Claude Code does) ' +
  'through our filters and post_tool compressors; tokens counted with o200k. Only the first sending of each output is ' +
  'counted, not its re-reads from cache in later requests; retrieval of elided parts would cost extra tokens.';

export function replayTranscripts(runtime: Runtime, transcripts: readonly Transcript[], count: (text: string) => number, onProgress?: (done: number, total: number) => void): ReplaySummary {
  const rows = new Map<string, ReplayRow>();
  const total = transcripts.reduce((sum, transcript) => sum + transcript.tools.length, 0);
  let done = 0;
  let outputs = 0;
  let shortened = 0;
  let before = 0;
  let after = 0;
  for (const transcript of transcripts) {
    for (const tool of transcript.tools) {
      done += 1;
      onProgress?.(done, total);
      if (tool.output === '' || /tokenless retrieve/u.test(tool.command ?? '')) continue;
      const capped = tool.kind === 'shell' ? shellOutputCap(transcript.source) : null;
      const seen = cap(tool.output, capped);
      const replayed = cap(replayOne(runtime, tool, transcript.sessionId), capped);
      const b = count(seen.text);
      const a = replayed.text.length < seen.text.length ? Math.min(b, count(replayed.text)) : b;
      outputs += 1;
      before += b;
      after += a;
      if (a < b) shortened += 1;
      const op = a < b ? replayed.operation : 'unchanged';
      const row = rows.get(op) ?? { operation: op, outputs: 0, before: 0, after: 0 };
      rows.set(op, { operation: op, outputs: row.outputs + 1, before: row.before + b, after: row.after + a });
    }
  }
  return {
    tool_outputs: outputs,
    shortened,
    before_tokens: before,
    after_tokens: after,
    saved_tokens: before - after,
    by_operation: [...rows.values()].sort((x, y) => y.before - y.after - (x.before - x.after)),
    note: REPLAY_NOTE,
  };
}

interface Replayed {
  readonly text: string;
  readonly operation: string;
}

function replayOne(runtime: Runtime, tool: ToolEvent, sessionId: string): Replayed {
  const argv = tool.kind === 'shell' && tool.command !== null ? staticArgv(tool.command) : null;
  if (argv !== null && argv.length > 0) {
    const stdout = tool.stdout ?? tool.output;
    const stderr = tool.stderr ?? '';
    const view = viewRun(
      runtime,
      { argv, stdout: Buffer.from(stdout, 'utf8'), stderr: Buffer.from(stderr, 'utf8'), exitCode: tool.isError ? 1 : 0 },
      { agentId: 'syt-analyze', sessionId, toolUseId: tool.id },
    );
    const text = view.stdout.toString('utf8') + view.stderr.toString('utf8');
    return { text: view.disposition === 'applied' ? text : tool.output, operation: view.filter ?? 'unchanged' };
  }
  const result = postTool(runtime, {
    protocol_version: 2,
    operation: 'post_tool',
    attribution: { agent_id: 'syt-analyze', session_id: sessionId, tool_use_id: tool.id || 'replay' },
    input: {
      tool_name: tool.tool,
      status: tool.isError ? 'error' : 'success',
      origin: tool.kind === 'read' ? 'file_content' : tool.kind === 'shell' ? 'command_output' : 'api_response',
      content: tool.output,
      ...(tool.kind === 'shell' && tool.command !== null ? { command: tool.command } : {}),
    },
  });
  return { text: result.output, operation: result.applied_operations.join('+') || 'unchanged' };
}

/** What the model could have been shown at most: the harness's shell output cap (null: the output is kept whole). */
function cap(text: string | Replayed, limit: number | null): Replayed {
  const value = typeof text === 'string' ? { text, operation: 'unchanged' } : text;
  if (limit === null || value.text.length <= limit) return value;
  return { ...value, text: value.text.slice(0, limit) };
}
