/**
 * One Claude Code hook event in, Claude Code's own hook output out (CONTRACTS.md "Claude Code hook JSON"). Shared by
 * the command hook (`tokenless hook pre_tool|post_tool`) and the HTTP hook server, so both give the same answers.
 */
import { describeIssues } from '../../protocol/issues.ts';
import { PROTOCOL_VERSION } from '../../protocol/names.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { CLAUDE_CODE_REWRITE } from '../../runtime/wrap-policy.ts';
import { classifyOurCommand } from '../our-commands.ts';
import type { AnswerContext, HarnessAnswer } from '../types.ts';
import type { AllowAdvice } from '../../permissions/allow-advice.ts';
import { PostToolUseInput, PreToolUseInput } from './schemas.ts';
import { projectOf } from '../../store/project.ts';

export const CLAUDE_CODE_AGENT_ID = 'claude-code';


/**
 * HOME and CLAUDE_CONFIG_DIR come from the context's env (the hook's environment; the server's own); the project
 * directory from the hook's CLAUDE_PROJECT_DIR or the event itself (project-root.ts), never the server's.
 */
type ClaudeCodeAnswer = HarnessAnswer;
type AnswerOptions = AnswerContext;

export async function answerClaudeCodeEvent(raw: unknown, runtime: Runtime, options: AnswerOptions): Promise<ClaudeCodeAnswer> {
  const event = typeof raw === 'object' && raw !== null ? (raw as { hook_event_name?: unknown }).hook_event_name : undefined;
  if (event === 'PreToolUse') return answerPreToolUse(raw, runtime, options);
  if (event === 'PostToolUse') return answerPostToolUse(raw, runtime, options);
  return { answer: null, note: `event ${String(event)} is not ours` };
}

async function answerPreToolUse(raw: unknown, runtime: Runtime, options: AnswerOptions): Promise<ClaudeCodeAnswer> {
  const parsed = PreToolUseInput.safeParse(raw);
  if (!parsed.success) return { error: `not a PreToolUse event: ${describeIssues(parsed.error)}` };
  const event = parsed.data;
  // The context budget's answer to loading a skill; its code loads only for a Skill call.
  if (event.tool_name === 'Skill') return (await import('./skill-gate.ts')).answerSkillCall(event, runtime, options);
  if (event.tool_name !== 'Bash') return { answer: null, note: '' };
  // The rewrite and the permission check (the rules files, the read-only tables) load only for a Bash pre_tool.
  const [{ rewriteShellInput }, { bashPermissionFor }] = await Promise.all([import('../../runtime/pre-tool.ts'), import('./bash-permission.ts')]);
  const call = { agentId: CLAUDE_CODE_AGENT_ID, sessionId: event.session_id, toolUseId: event.tool_use_id, toolName: event.tool_name, toolInput: event.tool_input };
  // updatedInput replaces the whole input: every original field is kept, only the command differs.
  const updatedInput = rewriteShellInput(runtime, call, { wrapperCommand: options.wrapperCommand, ...CLAUDE_CODE_REWRITE });
  if (updatedInput === null) return { answer: null, note: '' };
  const permission = bashPermissionFor(event, options.env);
  // Only a command that would have run without asking may carry "allow" (README, "Permissions are never widened").
  if (permission.verdict === 'allow') {
    return {
      answer: {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'allow',
          permissionDecisionReason: 'tokenless: output filtered; the original command is allowed by your settings',
          updatedInput,
        },
      },
      note: '',
    };
  }
  // A command the client would ask about goes to the same dialog, showing the rewritten line (FINDINGS.md, "Rewrites in
  // default permission mode"). Only in the terminal UI: headless runs turn "ask" into a denial even where the user's
  // --allowedTools, which a hook cannot see, would have let the original run.
  if (permission.verdict === 'asks' && asksInDialog(event.permission_mode, options.env)) {
    return {
      answer: {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'ask',
          permissionDecisionReason: askReason(permission.allowAdvice),
          updatedInput,
        },
      },
      note: `ask (${permission.reason})`,
    };
  }
  return { answer: null, note: `passthrough (${permission.verdict}): ${permission.reason}` };
}

/**
 * Permission modes whose dialog asks the person. plan and dontAsk never run an unapproved command; in auto mode a
 * server-side classifier spares some dialogs, so an "ask" of ours could add one (observed: 2.1.332's default there).
 */
const DIALOG_MODES = new Set([undefined, 'default', 'acceptEdits']);

function asksInDialog(mode: string | undefined, env: Readonly<Record<string, string | undefined>>): boolean {
  return DIALOG_MODES.has(mode) && env['CLAUDE_CODE_ENTRYPOINT'] === 'cli';
}

/** What the dialog says: why the line looks different, and how to allow what was typed for good. */
export function askReason(advice: AllowAdvice | undefined): string {
  // Only a test or build run gets a standing rule suggested: never advice to let the agent push, install or delete.
  const how = advice?.suggest !== true ? '' : ` To stop being asked, add "${advice.rule}" to permissions.allow in .claude/settings.json; the command is then filtered without a dialog.`;
  return `tokenless: the same command, run through its output filter (full output retrievable).${how}`;
}

async function answerPostToolUse(raw: unknown, runtime: Runtime, options: AnswerOptions): Promise<ClaudeCodeAnswer> {
  const parsed = PostToolUseInput.safeParse(raw);
  if (!parsed.success) return { error: `not a PostToolUse event: ${describeIssues(parsed.error)}` };
  const event = parsed.data;
  if (event.tool_name !== 'Read') return compressToolResult(event, runtime, options);
  // A Read result is never shortened (file content gets no compressor): the only answers are re-read views.
  const { readShown, pointReread, pointIntoWhole } = await import('./reread.ts');
  const shown = readShown(event);
  if (shown === null) return { answer: null, note: '' };
  const answer = (view: Record<string, unknown>, note: string): ClaudeCodeAnswer => ({ answer: { hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: view } }, note });
  try {
    const earlier = runtime.reads.seen(shown.key);
    const pointer = pointReread(runtime, event, shown, earlier, CLAUDE_CODE_AGENT_ID);
    if (pointer !== null) return answer(pointer, 'unchanged re-read');
    if (earlier?.text !== undefined && earlier.digest !== shown.digest) {
      // The diff code loads only here: a changed re-read the model holds the earlier text of.
      const { deltaReread } = await import('./delta-read.ts');
      const delta = deltaReread(runtime, event, shown, earlier, CLAUDE_CODE_AGENT_ID);
      if (delta !== null) {
        // The model now holds the new text (earlier text plus the diff): later re-reads diff against it.
        runtime.reads.record(shown.key, { digest: shown.digest, toolUseId: event.tool_use_id, text: shown.text });
        return answer(delta, 'changed re-read');
      }
    }
    if (shown.key.range !== ':') {
      const inside = pointIntoWhole(runtime, event, shown, runtime.reads.seen({ ...shown.key, range: ':' }), CLAUDE_CODE_AGENT_ID);
      if (inside !== null) return answer(inside, 'range of a whole read');
    }
  } catch (error) {
    return { answer: null, note: `re-read ledger unavailable: ${error instanceof Error ? error.message : String(error)}` };
  }
  // Shown in full, so it may be pointed at (or diffed against) later.
  try {
    runtime.reads.record(shown.key, { digest: shown.digest, toolUseId: event.tool_use_id, text: shown.text });
  } catch {
    // The ledger is an optimisation: without it every Read is shown in full, as before.
  }
  return { answer: null, note: '' };
}

async function compressToolResult(event: PostToolUseInput, runtime: Runtime, options: AnswerOptions): Promise<ClaudeCodeAnswer> {
  const [{ toolSlot }, { postTool }] = await Promise.all([import('./tool-output.ts'), import('../../runtime/post-tool.ts')]);
  const slot = toolSlot(event, (command) => classifyOurCommand(command, options.wrapperCommand));
  if (typeof slot === 'string') return { answer: null, note: '' };
  const shell = event.tool_name === 'Bash' ? slot.command : undefined;
  const project = event.cwd === undefined ? undefined : projectOf(event.cwd, options.env);
  // Only a shell call has a command the loop breaker knows: other tools never load it.
  const loop = shell === undefined ? null : await import('../../runtime/loop-breaker.ts');
  if (shell !== undefined && loop?.shellRunsRaw(runtime, event.session_id, shell) === true) return { answer: null, note: 'loop breaker: runs raw in this session' };
  const result = postTool(runtime, {
    protocol_version: PROTOCOL_VERSION,
    operation: 'post_tool',
    attribution: { agent_id: CLAUDE_CODE_AGENT_ID, session_id: event.session_id, tool_use_id: event.tool_use_id },
    input: {
      tool_name: event.tool_name,
      status: 'success',
      origin: slot.origin,
      content: slot.text,
      result_kind: slot.resultKind,
      ...(slot.command !== undefined ? { command: slot.command } : {}),
    },
  }, { project });
  if (result.disposition !== 'applied') return { answer: null, note: '' };
  if (shell !== undefined) {
    loop?.rememberLineView(runtime, shell, {
      sessionId: event.session_id,
      key: result.stash_keys[0],
      kind: result.content_type,
      project,
      tokens: result.before_tokens,
    });
  }
  return { answer: { hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: slot.rebuild(result.output) } }, note: '' };
}

