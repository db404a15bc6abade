/**
 * `syt init` for Claude Code: our hook groups in `.claude/settings.json`, planned by the shared settings plans
 * (src/harness/hook-settings.ts). One hook group per event carries all our work (several hooks on one tool run in
 * parallel on the original output and the last to finish wins, FINDINGS.md section 4).
 */
import { planInstall as planSettingsInstall, planUninstall as planSettingsUninstall, type SettingsDialect } from '../hook-settings.ts';
import type { InstallPlan, InstallTarget as HookTarget, UninstallPlan } from '../types.ts';
import { TOKEN_HEADER, httpHookPath, type HookEndpoint } from '../../server/http-hooks.ts';
import { parseSettingsText, type HookEntry, type HookGroup } from './settings.ts';

export type { HookTarget };

/** The path prefix of our HTTP hook URLs (isOurHook recognises it, whatever the port). */
const HTTP_HOOK_PATH = httpHookPath('claude-code');

const EVENTS: readonly { event: string; matcher?: string; lifecycle: HookEndpoint }[] = [
  // Bash: command rewrites. Skill: the budget's tiered response to loading a skill (src/harness/claude-code/skill-gate.ts).
  { event: 'PreToolUse', matcher: 'Bash|Skill', lifecycle: 'pre_tool' },
  // Glob has no contract in post_tool (CONTRACTS.md), so it is not worth a call.
  { event: 'PostToolUse', matcher: 'Bash|Grep|Read|Glob|WebFetch|mcp__.*', lifecycle: 'post_tool' },
  // The context budget: one line when a ladder threshold is crossed, and the snapshot kept across a compaction.
  { event: 'UserPromptSubmit', lifecycle: 'session' },
  { event: 'SessionStart', lifecycle: 'session' },
  { event: 'PreCompact', lifecycle: 'session' },
  // Nothing to say; with telemetry on, the hook starts a detached export of what the session recorded.
  { event: 'SessionEnd', lifecycle: 'session' },
];

/** How many hooks of ours a complete installation has: one per event. */
export const OUR_HOOK_COUNT = EVENTS.length;

/** A command hook over this many seconds is killed and the tool runs unchanged: a stuck hook must not stall the agent. */
const COMMAND_TIMEOUT_S = 30;
const HTTP_TIMEOUT_S = 10;

export function ourGroups(target: HookTarget): Record<string, HookGroup> {
  const groups: Record<string, HookGroup> = {};
  for (const { event, matcher, lifecycle } of EVENTS) {
    const hook: HookEntry =
      target.kind === 'command'
        ? { type: 'command', command: `${target.wrapperCommand} hook ${lifecycle}`, timeout: COMMAND_TIMEOUT_S }
        : { type: 'http', url: `${target.baseUrl}${HTTP_HOOK_PATH}${lifecycle}`, timeout: HTTP_TIMEOUT_S, headers: { [TOKEN_HEADER]: target.token } };
    groups[event] = matcher === undefined ? { hooks: [hook] } : { matcher, hooks: [hook] };
  }
  return groups;
}

const DIALECT: SettingsDialect = {
  parse: parseSettingsText,
  ourGroups: (target) => Object.fromEntries(Object.entries(ourGroups(target)).map(([event, group]) => [event, [group]])),
};

/** original null: the file does not exist. */
export function planInstall(original: string | null, target: HookTarget): InstallPlan {
  return planSettingsInstall(DIALECT, original, target);
}

/** backup: the bytes saved by the first install, or null when there is none (the file did not exist before). */
export function planUninstall(current: string | null, backup: string | null): UninstallPlan {
  return planSettingsUninstall(DIALECT, current, backup);
}
