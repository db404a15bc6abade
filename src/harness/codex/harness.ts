/**
 * Codex CLI 0.169.0 behind the harness seam. pre_tool: PreToolUse on its shell tool rewrites the command through our
 * wrapper, only where Codex runs every command without asking (approval.ts). post_tool: nothing, since PostToolUse
 * cannot replace a tool result in 0.169.0 (`updatedToolOutput` and `updatedMCPToolOutput` both make the hook fail,
 * docs/agents/codex-findings.md); the wrapper has already shortened the output, so the model receives the filtered
 * view with its retrieval line. Codex runs commands in a login shell (`bash -lc`) whose profile may define functions,
 * so the rewrite keeps Claude Code's in-shell check of each wrapped name.
 */
import { describeIssues } from '../../protocol/issues.ts';
import { COMMAND_HOOK_ONLY, privateHookStep } from '../command-hook-only.ts';
import { decideApproval } from './approval.ts';
import { CLIENT, codexOurFiles, codexDoctor } from './doctor.ts';
import { probeApproval } from './probe.ts';
import { PreToolUseInput, SHELL_TOOL } from './schemas.ts';
import { codexHooksPath } from './settings.ts';
import type { AnswerContext, Harness, HarnessAnswer } from '../types.ts';
import type { Runtime } from '../../runtime/runtime.ts';

export const CODEX_AGENT_ID = 'codex';

export const harness: Harness = {
  name: 'codex',
  title: 'Codex CLI',
  async answer(lifecycle, raw, runtime, context) {
    if (lifecycle !== 'pre_tool') return { error: `lifecycle ${lifecycle} has no Codex hook of ours` };
    if (raw['hook_event_name'] !== 'PreToolUse') return { error: `not a PreToolUse event: hook_event_name is ${JSON.stringify(raw['hook_event_name'])}` };
    return answerPreToolUse(raw, runtime, context);
  },
  ...COMMAND_HOOK_ONLY,
  nextSteps: (path, _target, scope, name) => [
    `Installed: a PreToolUse hook on the shell tool in ${path}.`,
    `Codex runs a new or changed hook only once you trust it: start codex, type /hooks and press t${scope === 'project' ? " (a project's .codex/hooks.json is read only in a trusted project)" : ''}. codex exec skips an untrusted hook silently.`,
    privateHookStep(scope, name, 'codex'),
    'Which commands get filtered: only where Codex runs every command without asking (approval policy "never", as in codex exec), with no exec-policy rules files; everywhere else commands run as typed.',
    `Check the installation and the trust entry: ${name} doctor --harness codex`,
  ],
  settingsPath: codexHooksPath,
  installer: () => import('./install.ts'),
  client: CLIENT,
  ourFiles: codexOurFiles,
  doctor: codexDoctor,
};

async function answerPreToolUse(raw: unknown, runtime: Runtime, context: AnswerContext): Promise<HarnessAnswer> {
  const parsed = PreToolUseInput.safeParse(raw);
  if (!parsed.success) return { error: `not a PreToolUse event: ${describeIssues(parsed.error)}` };
  const event = parsed.data;
  if (event.tool_name !== SHELL_TOOL) return { answer: null, note: '' };
  if (runtime.config.disabled) return { answer: null, note: 'passthrough: TOKENLESS_DISABLED is set' };
  const approval = decideApproval(probeApproval(event.permission_mode, event.cwd ?? process.cwd(), context.env));
  if (!approval.runsWithoutAsking) return { answer: null, note: `passthrough: ${approval.reason}` };
  const { rewriteShellInput } = await import('../../runtime/pre-tool.ts');
  const call = { agentId: CODEX_AGENT_ID, sessionId: event.session_id, toolUseId: event.tool_use_id, toolName: event.tool_name, toolInput: event.tool_input };
  const updatedInput = rewriteShellInput(runtime, call, { wrapperCommand: context.wrapperCommand });
  if (updatedInput === null) return { answer: null, note: '' };
  // Codex refuses `updatedInput` without "allow"; approval.ts has shown nothing would have asked.
  return {
    answer: {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        permissionDecisionReason: 'tokenless: output filtered (full output retrievable)',
        updatedInput,
      },
    },
    note: '',
  };
}
