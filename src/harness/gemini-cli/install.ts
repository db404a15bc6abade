/**
 * `syt init --harness gemini-cli`, as pure text-to-text plans over `.gemini/settings.json`. One hook: BeforeTool on
 * `run_shell_command`. AfterTool is not registered: it cannot substitute a tool result in Gemini CLI 0.61.0 (only
 * replace it with an error or append context, FINDINGS.md), so it could only add tokens. Every other key and hook is
 * kept, by the plans every harness shares (../hook-settings.ts); our hooks are recognised by the same rule as Claude
 * Code's (`… hook pre_tool` at the end of the command).
 */
import { planInstall as planSettingsInstall, planUninstall as planSettingsUninstall, type ParsedSettings, type SettingsDialect } from '../hook-settings.ts';
import type { InstallPlan, InstallTarget, UninstallPlan } from '../types.ts';

/** Gemini CLI kills a command hook after this many milliseconds and runs the tool unchanged. */
const TIMEOUT_MS = 30_000;

/** An HTTP target never reaches here (planInstall refuses it). */
export function ourGroups(target: InstallTarget): Record<string, unknown[]> {
  if (target.kind !== 'command') return {};
  return {
    BeforeTool: [
      { matcher: 'run_shell_command', hooks: [{ type: 'command', name: 'tokenless', command: `${target.wrapperCommand} hook pre_tool`, timeout: TIMEOUT_MS }] },
    ],
  };
}

export const OUR_HOOK_COUNT = 1;

/** Gemini CLI also accepts comments in settings.json; we do not rewrite such a file (its comments would be lost). */
export function parseGeminiSettings(text: string): ParsedSettings {
  if (text.trim() === '') return { ok: true, raw: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not plain JSON (${error instanceof Error ? error.message : 'parse error'}; comments are not supported here)` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, error: 'not a JSON object' };
  const hooks = (raw as Record<string, unknown>)['hooks'];
  if (hooks !== undefined && (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks))) return { ok: false, error: '"hooks" is not an object' };
  return { ok: true, raw: raw as Record<string, unknown> };
}

const DIALECT: SettingsDialect = { parse: parseGeminiSettings, ourGroups };

export function planInstall(original: string | null, target: InstallTarget): InstallPlan {
  if (target.kind !== 'command') return { ok: false, error: 'Gemini CLI has command hooks only' };
  return planSettingsInstall(DIALECT, original, target);
}

export function planUninstall(current: string | null, backup: string | null): UninstallPlan {
  return planSettingsUninstall(DIALECT, current, backup);
}
