/**
 * Claude Code behind the harness seam: a thin adapter over the existing code in src/adapters/claude-code/ (the
 * answers, the install plans), so Claude Code behaves exactly as it did before the seam.
 */
import { answerClaudeCodeEvent } from '../adapters/claude-code/answer.ts';
import { planInstall, planUninstall } from '../adapters/claude-code/install.ts';
import { legacySettingsPaths, settingsPath } from '../adapters/claude-code/settings.ts';
import type { Lifecycle } from '../protocol/schemas.ts';
import type { Harness } from './types.ts';

const EVENT_FOR: Partial<Record<Lifecycle, string>> = { pre_tool: 'PreToolUse', post_tool: 'PostToolUse' };

export const claudeCode: Harness = {
  name: 'claude-code',
  async answer(lifecycle, raw, runtime, context) {
    const expected = EVENT_FOR[lifecycle];
    if (expected === undefined) return { error: `lifecycle ${lifecycle} has no Claude Code hook event` };
    const event = raw['hook_event_name'];
    if (event !== expected) return { error: `not a ${expected} event: hook_event_name is ${JSON.stringify(event)}` };
    return answerClaudeCodeEvent(raw, runtime, context);
  },
  settingsPath,
  legacySettingsPaths,
  planInstall,
  planUninstall,
  // `syt doctor` keeps its Claude Code checks in commands/integration/doctor.ts for now (issue 17, step 1).
  doctor: () => [],
};
