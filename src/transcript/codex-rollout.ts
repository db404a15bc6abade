/**
 * A Codex CLI rollout (`~/.codex/sessions/…/rollout-<time>-<id>.jsonl`) as the shell-call benchmark needs it: each
 * `shell` function call with the line it ran and the output text the model was given. Codex 0.40's records:
 * `{"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[…]}","call_id":…}}`
 * then `{"type":"response_item","payload":{"type":"function_call_output","call_id":…,"output":"{\"output\":…,
 * \"metadata\":{\"exit_code\":N}}"}}`. Lines that are not JSON, other records and calls without an output are skipped.
 */
import * as z from 'zod/mini';

export interface RolloutShellCall {
  readonly callId: string;
  /** The shell line (`zsh -lc LINE`'s LINE), or the argv joined with spaces when it was no `-c`/`-lc` call. */
  readonly line: string;
  readonly output: string;
  readonly exitCode: number;
}

const Record_ = z.looseObject({ type: z.string(), payload: z.optional(z.looseObject({ type: z.optional(z.string()), name: z.optional(z.string()), arguments: z.optional(z.string()), call_id: z.optional(z.string()), output: z.optional(z.string()) })) });
const ShellArguments = z.looseObject({ command: z.array(z.string()) });
const ShellOutput = z.looseObject({ output: z.string(), metadata: z.optional(z.looseObject({ exit_code: z.optional(z.number()) })) });
const SHELLS = new Set(['bash', 'zsh', 'sh', 'dash']);

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function readRolloutShellCalls(text: string): RolloutShellCall[] {
  const lines = new Map<string, string>();
  const calls: RolloutShellCall[] = [];
  for (const raw of text.split('\n')) {
    if (!raw.includes('"function_call')) continue;
    const record = Record_.safeParse(json(raw));
    if (!record.success || record.data.type !== 'response_item' || record.data.payload?.call_id === undefined) continue;
    const { payload } = record.data;
    const id = payload.call_id as string;
    if (payload.type === 'function_call' && payload.name === 'shell' && payload.arguments !== undefined) {
      const args = ShellArguments.safeParse(json(payload.arguments));
      if (args.success) lines.set(id, lineOf(args.data.command));
    } else if (payload.type === 'function_call_output' && payload.output !== undefined && lines.has(id)) {
      const out = ShellOutput.safeParse(json(payload.output));
      if (out.success) calls.push({ callId: id, line: lines.get(id) ?? '', output: out.data.output, exitCode: out.data.metadata?.exit_code ?? 0 });
    }
  }
  return calls;
}

function lineOf(command: readonly string[]): string {
  const [shell = '', flag = '', line] = command;
  const name = shell.slice(shell.lastIndexOf('/') + 1);
  return SHELLS.has(name) && (flag === '-c' || flag === '-lc') && line !== undefined ? line : command.join(' ');
}
