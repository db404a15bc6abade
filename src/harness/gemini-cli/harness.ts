/**
 * Gemini CLI 0.61.0 behind the harness seam. pre_tool: BeforeTool on `run_shell_command` rewrites the command through
 * our wrapper, only where Gemini CLI would run the original and the rewrite without asking (approval.ts). post_tool:
 * nothing, since AfterTool cannot substitute a result (FINDINGS.md); the wrapper has already shortened the output, so
 * the model receives the filtered view with its retrieval line.
 */
import { describeIssues } from '../../protocol/parse.ts';
import { PROTOCOL_VERSION } from '../../protocol/schemas.ts';
import { shellQuote } from '../../shell/quote.ts';
import { decideApproval } from './approval.ts';
import { geminiDoctor } from './doctor.ts';
import { planInstall, planUninstall } from './install.ts';
import { probeApproval } from './probe.ts';
import { BeforeToolInput, SHELL_TOOL } from './schemas.ts';
import { geminiSettingsPath } from './settings.ts';
import type { AnswerContext, Harness, HarnessAnswer } from '../types.ts';
import type { Runtime } from '../../runtime/runtime.ts';

export const GEMINI_CLI_AGENT_ID = 'gemini-cli';

export const geminiCli: Harness = {
  name: 'gemini-cli',
  async answer(lifecycle, raw, runtime, context) {
    if (lifecycle !== 'pre_tool') return { error: `lifecycle ${lifecycle} has no Gemini CLI hook of ours` };
    if (raw['hook_event_name'] !== 'BeforeTool') return { error: `not a BeforeTool event: hook_event_name is ${JSON.stringify(raw['hook_event_name'])}` };
    return answerBeforeTool(raw, runtime, context);
  },
  sessionId(raw, env) {
    const id = raw['session_id'];
    return typeof id === 'string' && id !== '' ? id : (env['GEMINI_SESSION_ID'] ?? null);
  },
  settingsPath: geminiSettingsPath,
  planInstall,
  planUninstall,
  doctor: geminiDoctor,
};

async function answerBeforeTool(raw: unknown, runtime: Runtime, context: AnswerContext): Promise<HarnessAnswer> {
  const parsed = BeforeToolInput.safeParse(raw);
  if (!parsed.success) return { error: `not a BeforeTool event: ${describeIssues(parsed.error)}` };
  const event = parsed.data;
  if (event.tool_name !== SHELL_TOOL) return { answer: null, note: '' };
  const command = event.tool_input['command'];
  if (typeof command !== 'string') return { answer: null, note: 'no command' };
  const projectDir = context.env['GEMINI_PROJECT_DIR'] ?? event.cwd ?? process.cwd();
  const approval = decideApproval(probeApproval(projectDir, context.env));
  if (!approval.runsWithoutAsking) return { answer: null, note: `passthrough: ${approval.reason}` };
  const rewritten = retrieveWithSession(command, event.session_id, context.wrapperCommand) ?? (await wrapped(command, event, runtime, context));
  if (rewritten === null) return { answer: null, note: '' };
  // Every original argument is kept; only the command differs.
  return { answer: { hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { ...event.tool_input, command: rewritten } } }, note: '' };
}

async function wrapped(command: string, event: BeforeToolInput, runtime: Runtime, context: AnswerContext): Promise<string | null> {
  const { preTool } = await import('../../runtime/pre-tool.ts');
  const result = preTool(
    runtime,
    {
      protocol_version: PROTOCOL_VERSION,
      operation: 'pre_tool',
      attribution: { agent_id: GEMINI_CLI_AGENT_ID, session_id: event.session_id },
      input: { tool_name: event.tool_name, arguments: { command }, command_field: 'command' },
    },
    { wrapperCommand: context.wrapperCommand },
  );
  if (result.action !== 'replace_arguments' || result.arguments === undefined) return null;
  const next = result.arguments['command'];
  return typeof next === 'string' ? next : null;
}

/**
 * Gemini CLI passes no session variable to shell commands (Claude Code has CLAUDE_CODE_SESSION_ID), so a bare
 * `tokenless retrieve ID` could not prove which session was shown the marker. One simple command of ours, with no
 * shell syntax that could make an assignment prefix reach anything else, gets the session as a prefix assignment.
 */
export function retrieveWithSession(command: string, sessionId: string, wrapperCommand: string): string | null {
  if (/[;&|<>()$`\\\n\r]/.test(command) || /\bTOKENLESS_SESSION_ID=/.test(command)) return null;
  const trimmed = command.trim();
  const ours = /^(tokenless|syt)\s+retrieve(\s|$)/.test(trimmed) || trimmed.startsWith(`${wrapperCommand} retrieve `);
  if (!ours) return null;
  return `TOKENLESS_SESSION_ID=${shellQuote(sessionId)} ${trimmed}`;
}
