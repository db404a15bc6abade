/**
 * Claude Code behind the harness seam: its dialect over the files beside this one (the answers, the session events,
 * the install plans, the permission rules, the tool-output slots). The answers and the doctor are imported when
 * called: loading this file on the hook path costs only what the hook then runs.
 */
import { CLAUDE_CODE_CLIENT, legacySettingsPaths, settingsPath } from './paths.ts';
import type { Lifecycle } from '../../protocol/schemas.ts';
import type { Harness } from '../types.ts';

const EVENT_FOR: Partial<Record<Lifecycle, string>> = { pre_tool: 'PreToolUse', post_tool: 'PostToolUse' };

export const harness: Harness = {
  name: 'claude-code',
  title: 'Claude Code',
  async answer(lifecycle, raw, runtime, context) {
    const expected = EVENT_FOR[lifecycle];
    if (expected === undefined) return { error: `lifecycle ${lifecycle} has no Claude Code hook event` };
    const event = raw['hook_event_name'];
    if (event !== expected) return { error: `not a ${expected} event: hook_event_name is ${JSON.stringify(event)}` };
    return (await import('./answer.ts')).answerClaudeCodeEvent(raw, runtime, context);
  },
  async answerSession(raw, dataDir) {
    const { answerSessionEvent, isSessionEvent } = await import('./session.ts');
    const event = raw['hook_event_name'];
    if (!isSessionEvent(event)) return { error: `not a session event: hook_event_name is ${JSON.stringify(event)}` };
    return answerSessionEvent(raw, dataDir);
  },
  settingsPath,
  privateProjectSettings: true,
  legacySettingsPaths,
  httpHooks: true,
  installer: () => import('./install.ts'),
  nextSteps: (path, target, scope, name) => {
    const http = target === 'http';
    return [
      `Installed: ${http ? 'HTTP' : 'command'} hooks for PreToolUse (Bash, Skill), PostToolUse (Bash, Grep, Read, Glob, WebFetch, MCP tools), UserPromptSubmit, SessionStart, PreCompact and SessionEnd in ${path}.${http ? ` Start the server first: ${name} serve.` : ''} Restart Claude Code (or open /hooks) to load them.`,
      `${scope === 'project' ? `The hooks name this machine's paths, so they live in this file, which is not committed (.claude/settings.json is left as it was): everyone on the project runs ${name} init once. ` : ''}${name} init --uninstall removes exactly what was added.`,
      'Which commands get filtered follows your permissions: commands Claude Code runs without asking (read-only ones such as git status, ls, rg, and those your allow rules cover) are rewritten silently. A command Claude Code asks about (npm test, cargo build, …) shows the rewritten line in its permission dialog in the terminal UI in the default permission mode, and is left alone in auto mode and in `claude -p`.',
      'To have the commands you run often filtered without a dialog, add allow rules such as "Bash(npm test:*)" to permissions.allow in .claude/settings.json.',
      `Check the installation, and see which of this project's frequent commands get rewritten: ${name} doctor`,
    ];
  },
  client: CLAUDE_CODE_CLIENT,
  ourFiles: async (projectDir, env) => (await import('./doctor.ts')).claudeCodeOurFiles(projectDir, env),
  doctor: async (projectDir, env, probes) => (await import('./doctor.ts')).claudeCodeDoctor(projectDir, env, probes),
};
