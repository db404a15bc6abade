/**
 * Gemini CLI 0.61.0 behind the harness seam. pre_tool: BeforeTool on `run_shell_command` rewrites the command through
 * our wrapper, only where Gemini CLI would run the original and the rewrite without asking (approval.ts). post_tool:
 * nothing, since AfterTool cannot substitute a result (FINDINGS.md); the wrapper has already shortened the output, so
 * the model receives the filtered view with its retrieval line.
 */
import { describeIssues } from '../../protocol/issues.ts';
import { COMMAND_HOOK_ONLY, privateHookStep } from '../command-hook-only.ts';
import { shellQuote } from '../../shell/quote.ts';
import { decideApproval } from './approval.ts';
import { CLIENT, geminiOurFiles, geminiDoctor } from './doctor.ts';
import { probeApproval } from './probe.ts';
import { BeforeToolInput, SHELL_TOOL } from './schemas.ts';
import { geminiSettingsPath } from './settings.ts';
import { CALLER_HOLD_VAR } from '../../runtime/run-hold.ts';
import type { AnswerContext, Harness, HarnessAnswer } from '../types.ts';
import type { RewriteSegment } from '../../rewrite/types.ts';
import type { Runtime } from '../../runtime/runtime.ts';

export const GEMINI_CLI_AGENT_ID = 'gemini-cli';

export const harness: Harness = {
  name: 'gemini-cli',
  title: 'Gemini CLI',
  async answer(lifecycle, raw, runtime, context) {
    if (lifecycle !== 'pre_tool') return { error: `lifecycle ${lifecycle} has no Gemini CLI hook of ours` };
    if (raw['hook_event_name'] !== 'BeforeTool') return { error: `not a BeforeTool event: hook_event_name is ${JSON.stringify(raw['hook_event_name'])}` };
    return answerBeforeTool(raw, runtime, context);
  },
  ...COMMAND_HOOK_ONLY,
  nextSteps: (path, _target, scope, name) => [
    `Installed: a BeforeTool hook on run_shell_command in ${path}. Start a new Gemini CLI session to load it.`,
    privateHookStep(scope, name, 'gemini-cli'),
    'Which commands get filtered: only where Gemini CLI runs a shell command without asking whatever it is (YOLO mode in a headless run, `gemini --yolo -p …`, with no policy rules of yours that could tell the rewrite from the original); everywhere else commands run as typed.',
    `Check the installation: ${name} doctor --harness gemini-cli`,
  ],
  settingsPath: geminiSettingsPath,
  installer: () => import('./install.ts'),
  client: CLIENT,
  ourFiles: geminiOurFiles,
  doctor: geminiDoctor,
};

async function answerBeforeTool(raw: unknown, runtime: Runtime, context: AnswerContext): Promise<HarnessAnswer> {
  const parsed = BeforeToolInput.safeParse(raw);
  if (!parsed.success) return { error: `not a BeforeTool event: ${describeIssues(parsed.error)}` };
  const event = parsed.data;
  if (event.tool_name !== SHELL_TOOL) return { answer: null, note: '' };
  const command = event.tool_input['command'];
  if (typeof command !== 'string') return { answer: null, note: 'no command' };
  if (runtime.config.disabled) return { answer: null, note: 'passthrough: TOKENLESS_DISABLED is set' };
  const projectDir = context.env['GEMINI_PROJECT_DIR'] ?? event.cwd ?? process.cwd();
  const approval = decideApproval(probeApproval(projectDir, context.env));
  if (!approval.runsWithoutAsking) return { answer: null, note: `passthrough: ${approval.reason}` };
  const rewritten = retrieveWithSession(command, event.session_id, context.wrapperCommand) ?? (await rewriteForGeminiShell(command, event, runtime, context));
  if (rewritten === null) return { answer: null, note: '' };
  // Every original argument is kept; only the command differs.
  return { answer: { hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { ...event.tool_input, command: rewritten } } }, note: '' };
}

/**
 * Gemini CLI runs a command as `bash -c 'shopt -u …; ( COMMAND )'` (0.61.0 shellExecutionService): a non-interactive
 * bash with no aliases and no rc file, so a bare name is a builtin, a function exported through the environment, or
 * a program on PATH. It also refuses any command holding `$(`, backticks, `<(` or `>(` ("Command injection detected",
 * measured), so the `case $(command -v NAME)` check Claude Code needs would block the command. Instead the hook checks
 * what that line would have: no BASH_ENV, no exported function, no builtin or keyword among the wrapped names.
 */
export async function rewriteForGeminiShell(command: string, event: BeforeToolInput, runtime: Runtime, context: AnswerContext): Promise<string | null> {
  if (runtime.config.disabled || runtime.config.dryRun) return null;
  if (process.platform === 'win32') return null;
  if (context.env['BASH_ENV'] !== undefined || Object.keys(context.env).some((name) => name.startsWith('BASH_FUNC_'))) return null;
  const { planCommand, attributionEnv } = await import('../../runtime/pre-tool.ts');
  const env = { ...attributionEnv({ agent_id: GEMINI_CLI_AGENT_ID, session_id: event.session_id }), ...foregroundHold(event.tool_input) };
  const plan = planCommand(command, runtime, { wrapperCommand: context.wrapperCommand, resolveNamesInShell: false }, env);
  if (plan.command === null) return null;
  if (wrapsABuiltin(plan.segments)) return null;
  if (/\$\(|`|<\(|>\(/.test(plan.command)) return null;
  return plan.command;
}

/**
 * Gemini CLI 0.61.0 hands the model a foreground command's output only when it exits (its live updates go to the
 * terminal UI alone), and kills it only after `tools.shell.inactivityTimeout` (default 300 s) without output, so
 * `run` may hold output for a view for GEMINI_FOREGROUND_HOLD_MS instead of the 0.5 s a pipe reader that polls needs.
 * An `is_background` call returns to the model after 200 ms and is read later: it keeps the short default.
 */
export const GEMINI_FOREGROUND_HOLD_MS = 10_000;

function foregroundHold(toolInput: Readonly<Record<string, unknown>>): Record<string, string> {
  return toolInput['is_background'] === true ? {} : { [CALLER_HOLD_VAR]: String(GEMINI_FOREGROUND_HOLD_MS) };
}

/** No filter covers a builtin today; this keeps a future one from running a program where bash runs its builtin. */
export function wrapsABuiltin(segments: readonly RewriteSegment[]): boolean {
  return segments.filter((segment) => segment.action === 'wrap').some((segment) => BASH_BUILTINS.has(firstWord(segment.source)) || BASH_BUILTINS.has(segment.viewArgv?.[0] ?? ''));
}

/** The program word of a simple command: the first word after any NAME=value assignments. */
function firstWord(source: string): string {
  const words = source.trim().split(/\s+/);
  return words.find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) ?? '';
}

/** bash 5 builtins and reserved words (`compgen -b -k`): such a name never runs the program our wrapper would find. */
const BASH_BUILTINS = new Set(
  (
    '. : [ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs disown echo enable eval exec exit ' +
    'export false fc fg getopts hash help history jobs kill let local logout mapfile popd printf pushd pwd read readarray readonly return ' +
    'set shift shopt source suspend test times trap true type typeset ulimit umask unalias unset wait ' +
    '! [[ ]] case coproc do done elif else esac fi for function if in select then time until while { }'
  ).split(' '),
);

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
