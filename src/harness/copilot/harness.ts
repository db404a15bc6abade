/**
 * GitHub Copilot CLI 1.0.102 behind the harness seam. post_tool: its postToolUse hook replaces the result of a bash
 * call of at least 1 KiB with our view (stash and retrieve marker included) through `modifiedResult`, keeping the
 * exit line Copilot appends; Copilot sends the replacement to the model. pre_tool: nothing. Copilot judges its
 * permission rules (`--allow-tool`, `--deny-tool`) on the command a preToolUse hook rewrote, not on what the model
 * asked for (measured: docs/agents/copilot.md), so a rewrite could widen or narrow what runs; commands run as typed.
 */
import { describeIssues } from '../../protocol/issues.ts';
import { PROTOCOL_VERSION } from '../../protocol/names.ts';
import { DEFAULT_VIEW_MIN_BYTES } from '../../config/view-threshold.ts';
import { projectOf } from '../../store/project.ts';
import { classifyOurCommand } from '../our-commands.ts';
import { COMMAND_HOOK_ONLY, privateHookStep } from '../command-hook-only.ts';
import type { AnswerContext, Harness, HarnessAnswer } from '../types.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { CLIENT, copilotOurFiles, copilotDoctor } from './doctor.ts';
import { commandOf, PostToolUseInput, SHELL_TOOL, type PostToolUseAnswer } from './schemas.ts';
import { copilotHooksPath } from './settings.ts';

export const COPILOT_AGENT_ID = 'copilot';

/** The line Copilot's bash tool ends every finished command's text with (stdout and stderr come merged before it). */
const EXIT_LINE = /<shellId: [^<>\n]+ completed with exit code -?\d+>$/;

export const harness: Harness = {
  name: 'copilot',
  title: 'GitHub Copilot CLI',
  async answer(lifecycle, raw, runtime, context) {
    // Only postToolUse is registered; any other call leaves the tool as it is.
    if (lifecycle !== 'post_tool') return { answer: null, note: `passthrough: lifecycle ${lifecycle} has no Copilot CLI hook of ours` };
    return answerPostToolUse(raw, runtime, context);
  },
  ...COMMAND_HOOK_ONLY,
  nextSteps: (path, _target, scope, name) => [
    `Installed: a postToolUse hook in ${path}. Start a new Copilot CLI session to load it.`,
    privateHookStep(scope, name, 'copilot'),
    'What changes: the result of a bash call of at least 1 KiB is replaced by a view the model can retrieve in full (exit line kept); commands run exactly as typed, so your --allow-tool and --deny-tool rules decide as before.',
    `Check the installation: ${name} doctor --harness copilot`,
  ],
  settingsPath: copilotHooksPath,
  installer: () => import('./install.ts'),
  client: CLIENT,
  ourFiles: copilotOurFiles,
  doctor: copilotDoctor,
};

async function answerPostToolUse(raw: unknown, runtime: Runtime, context: AnswerContext): Promise<HarnessAnswer> {
  const parsed = PostToolUseInput.safeParse(raw);
  if (!parsed.success) return { error: `not a postToolUse event: ${describeIssues(parsed.error)}` };
  const event = parsed.data;
  if (event.toolName !== SHELL_TOOL) return { answer: null, note: '' };
  // A failure (denied, cancelled) is the client's own message: never replaced.
  if (event.toolResult.resultType !== 'success') return { answer: null, note: `passthrough: result ${event.toolResult.resultType}` };
  const command = commandOf(event.toolArgs);
  if (command === null) return { answer: null, note: 'no command' };
  if (runtime.config.disabled) return { answer: null, note: 'passthrough: TOKENLESS_DISABLED is set' };
  const text = event.toolResult.textResultForLlm;
  const exit = EXIT_LINE.exec(text);
  // Still running, detached or cut by Copilot: not a finished command's whole output.
  if (exit === null) return { answer: null, note: 'passthrough: no exit line' };
  const output = text.slice(0, exit.index);
  if (Buffer.byteLength(output, 'utf8') < DEFAULT_VIEW_MIN_BYTES) return { answer: null, note: '' };
  // A retrieve prints what the model asked for in full; a wrapped command was viewed by our wrapper already.
  if (command.includes(`${context.wrapperCommand} retrieve`) || classifyOurCommand(command, context.wrapperCommand) !== 'other') return { answer: null, note: '' };
  const { postTool } = await import('../../runtime/post-tool.ts');
  const result = postTool(
    runtime,
    {
      protocol_version: PROTOCOL_VERSION,
      operation: 'post_tool',
      attribution: { agent_id: COPILOT_AGENT_ID, session_id: event.sessionId, ...(event.timestamp === undefined ? {} : { tool_use_id: String(event.timestamp) }) },
      input: { tool_name: SHELL_TOOL, status: 'success', origin: 'command_output', content: output, command },
    },
    { project: event.cwd === undefined ? undefined : projectOf(event.cwd, context.env) },
  );
  if (result.disposition !== 'applied') return { answer: null, note: '' };
  // The exit line stays on a line of its own, as Copilot wrote it: the model still learns the exit code.
  const separator = result.output === '' || result.output.endsWith('\n') ? '' : '\n';
  const answer: PostToolUseAnswer = { modifiedResult: { resultType: 'success', textResultForLlm: `${result.output}${separator}${exit[0]}` } };
  return { answer, note: '' };
}
