/**
 * `syt init --harness codex`, as pure text-to-text plans over `.codex/hooks.json` (project) or
 * `$CODEX_HOME/hooks.json` (user): one PreToolUse hook on the shell tool. PostToolUse is not registered: it cannot
 * replace a result in Codex 0.169.0, so it could only add a process start per tool call. The file has the same
 * shape as Gemini CLI's `hooks` (event → matcher groups → command hooks), so the same plans apply: every other key
 * and hook is kept, and uninstall brings back the backup's exact bytes when nothing else changed meanwhile.
 */
import { planHooksInstall, planUninstall } from '../gemini-cli/install.ts';
import type { InstallPlan, InstallTarget } from '../types.ts';
import { SHELL_TOOL } from './schemas.ts';

/** Codex kills a command hook after this many seconds (its default is 600) and runs the tool unchanged. */
const TIMEOUT_SECONDS = 30;

export function ourGroups(target: InstallTarget): Record<string, unknown[]> {
  return { PreToolUse: [{ matcher: SHELL_TOOL, hooks: [{ type: 'command', command: `${target.wrapperCommand} hook pre_tool`, timeout: TIMEOUT_SECONDS }] }] };
}

export const OUR_HOOK_COUNT = 1;

export function planInstall(original: string | null, target: InstallTarget): InstallPlan {
  return planHooksInstall(original, ourGroups(target), OUR_HOOK_COUNT);
}

export { planUninstall };
