import { findFilter } from '../filters/registry.ts';
import type { PreToolRequest, PreToolResult } from '../protocol/schemas.ts';
import { PROTOCOL_VERSION } from '../protocol/names.ts';
import { planRewrite, type RewritePlan } from '../rewrite/index.ts';
import { shellLoopCheck } from './loop-breaker.ts';
import type { Runtime } from './runtime.ts';

export interface PreToolOptions {
  /** Our own binary, already shell-quoted, absolute (the rewritten command must not depend on PATH). */
  readonly wrapperCommand: string;
  /** Off only for a harness whose shell has no aliases or functions of the user's (see RewriteOptions). */
  readonly resolveNamesInShell?: boolean;
  /** Wrap programs no filter knows too (see RewriteOptions); for a harness that answers with the permission check. */
  readonly wrapUnknown?: boolean;
}

/**
 * pre_tool: rewrite the command argument the adapter named so that filterable segments run through
 * `tokenless run`; every other byte of the command and every other argument stays as it was.
 */
export function preTool(runtime: Runtime, request: PreToolRequest, options: PreToolOptions): PreToolResult {
  const result = decide(runtime, request, options);
  runtime.lastDisposition = result.disposition;
  return result;
}

function decide(runtime: Runtime, request: PreToolRequest, options: PreToolOptions): PreToolResult {
  const { input, attribution } = request;
  const passthrough = (reason: string): PreToolResult => ({ disposition: 'passthrough', action: 'passthrough', reason });
  if (runtime.config.disabled) return passthrough('TOKENLESS_DISABLED is set');
  const field = input.command_field;
  if (field === undefined) return passthrough('the adapter named no command field');
  const command = input.arguments[field];
  if (typeof command !== 'string') return passthrough(`argument ${field} is not a string`);
  const loop = shellLoopCheck(runtime, attribution.session_id, command);
  if (loop.raw) return passthrough(loop.reason);
  const plan = planCommand(command, runtime, options, attributionEnv(attribution));
  if (plan.command === null) return passthrough(plan.reason);
  if (runtime.config.dryRun) return { disposition: 'dry_run', action: 'passthrough', reason: `would run: ${plan.command}` };
  return {
    disposition: 'applied',
    action: 'replace_arguments',
    arguments: { ...input.arguments, [field]: plan.command },
    reason: plan.reason,
  };
}

/** One call of a harness's shell tool, as its PreToolUse event names it. */
export interface ShellToolCall {
  readonly agentId: string;
  readonly sessionId: string;
  readonly toolUseId: string;
  readonly toolName: string;
  /** The tool's whole input; its command is in `command`. */
  readonly toolInput: Record<string, unknown>;
}

/**
 * pre_tool for a harness whose shell tool takes `command`: the tool's whole input with only the command rewritten,
 * or null when it runs as typed. The harness decides what it may answer with it (allow, ask, nothing).
 */
export function rewriteShellInput(runtime: Runtime, call: ShellToolCall, options: PreToolOptions): Record<string, unknown> | null {
  const result = preTool(
    runtime,
    {
      protocol_version: PROTOCOL_VERSION,
      operation: 'pre_tool',
      attribution: { agent_id: call.agentId, session_id: call.sessionId, tool_use_id: call.toolUseId },
      input: { tool_name: call.toolName, arguments: call.toolInput, command_field: 'command' },
    },
    options,
  );
  return result.action === 'replace_arguments' && result.arguments !== undefined ? result.arguments : null;
}

/** The variables a wrapped command carries so `tokenless run` records and authorises under the caller's session. */
export function attributionEnv(attribution: PreToolRequest['attribution']): Record<string, string> {
  return {
    TOKENLESS_AGENT_ID: attribution.agent_id,
    TOKENLESS_SESSION_ID: attribution.session_id,
    ...(attribution.tool_use_id !== undefined ? { TOKENLESS_TOOL_USE_ID: attribution.tool_use_id } : {}),
  };
}

/**
 * Commands longer than this are left as typed, unparsed: parsing and planning grow faster than linearly with the
 * length, so a 10 MB command took 16 s and 1 GB (issue 15, item 10). The longest Bash command in the shared corpus
 * transcripts is 3.4 KB; the long ones are heredocs, which are never rewritten anyway, so nothing is lost.
 */
export const MAX_COMMAND_CHARS = 16 * 1024;

export function planCommand(
  command: string,
  runtime: Runtime,
  options: PreToolOptions,
  attributionEnv: Readonly<Record<string, string>>,
): RewritePlan {
  if (command.length > MAX_COMMAND_CHARS) {
    return { command: null, segments: [], insertions: [], guards: [], reason: `command is longer than ${MAX_COMMAND_CHARS} characters: left as typed` };
  }
  return planRewrite(command, {
    wrapperCommand: options.wrapperCommand,
    attributionEnv,
    isWrappable: (argv) => findFilter(argv, runtime.fileFilters) !== null,
    exclude: runtime.config.excludeCommands,
    ...(options.resolveNamesInShell === false ? { resolveNamesInShell: false } : {}),
    ...(options.wrapUnknown === true ? { wrapUnknown: true } : {}),
  });
}
