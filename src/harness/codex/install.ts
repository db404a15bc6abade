/**
 * `syt init --harness codex`, as pure text-to-text plans over `.codex/hooks.json` (project) or
 * `$CODEX_HOME/hooks.json` (user): one PreToolUse hook on the shell tool. PostToolUse is not registered: it cannot
 * replace a result in Codex 0.169.0, so it could only add a process start per tool call. The file has the shape every
 * harness's settings share (event → matcher groups → command hooks) and is plain JSON like Gemini CLI's, so the
 * shared plans apply (../hook-settings.ts): every other key and hook is kept, and uninstall brings back the backup's
 * exact bytes when nothing else changed meanwhile.
 */
import { parseGeminiSettings } from '../gemini-cli/install.ts';
import { planInstall as planSettingsInstall, planUninstall as planSettingsUninstall, type SettingsDialect } from '../hook-settings.ts';
import type { InstallPlan, InstallTarget, UninstallPlan } from '../types.ts';
import { SHELL_TOOL } from './schemas.ts';

/** Codex kills a command hook after this many seconds (its default is 600) and runs the tool unchanged. */
const TIMEOUT_SECONDS = 30;

/** An HTTP target never reaches here (planInstall refuses it). */
export function ourGroups(target: InstallTarget): Record<string, unknown[]> {
  if (target.kind !== 'command') return {};
  return { PreToolUse: [{ matcher: SHELL_TOOL, hooks: [{ type: 'command', command: `${target.wrapperCommand} hook pre_tool`, timeout: TIMEOUT_SECONDS }] }] };
}

export const OUR_HOOK_COUNT = 1;

const DIALECT: SettingsDialect = { parse: parseGeminiSettings, ourGroups };

export function planInstall(original: string | null, target: InstallTarget): InstallPlan {
  if (target.kind !== 'command') return { ok: false, error: 'Codex CLI has command hooks only' };
  return planSettingsInstall(DIALECT, original, target);
}

export function planUninstall(current: string | null, backup: string | null): UninstallPlan {
  return planSettingsUninstall(DIALECT, current, backup);
}
