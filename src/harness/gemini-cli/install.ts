/**
 * `syt init --harness gemini-cli`, as pure text-to-text plans over `.gemini/settings.json`. One hook: BeforeTool on
 * `run_shell_command`. AfterTool is not registered: it cannot substitute a tool result in Gemini CLI 0.61.0 (only
 * replace it with an error or append context, FINDINGS.md), so it could only add tokens. Every other key and hook is
 * kept; uninstall brings back the backup's exact bytes when nothing else changed meanwhile. Our hooks are recognised
 * by the same rule as Claude Code's (`… hook pre_tool` at the end of the command).
 */
import { isDeepStrictEqual } from 'node:util';
import { countOurs, withoutOurs } from '../../adapters/claude-code/install.ts';
import type { InstallPlan, InstallTarget, UninstallPlan } from '../types.ts';

/** Gemini CLI kills a command hook after this many milliseconds and runs the tool unchanged. */
const TIMEOUT_MS = 30_000;

export function ourGroups(target: InstallTarget): Record<string, unknown[]> {
  return {
    BeforeTool: [
      { matcher: 'run_shell_command', hooks: [{ type: 'command', name: 'tokenless', command: `${target.wrapperCommand} hook pre_tool`, timeout: TIMEOUT_MS }] },
    ],
  };
}

export const OUR_HOOK_COUNT = 1;

type Parsed = { ok: true; raw: Record<string, unknown> } | { ok: false; error: string };

/** Gemini CLI also accepts comments in settings.json; we do not rewrite such a file (its comments would be lost). */
export function parseGeminiSettings(text: string): Parsed {
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

export function planInstall(original: string | null, target: InstallTarget): InstallPlan {
  return planHooksInstall(original, ourGroups(target), OUR_HOOK_COUNT);
}

/** Any JSON settings file with Claude-Code-shaped `hooks` groups (Gemini CLI's settings, Codex's hooks.json). */
export function planHooksInstall(original: string | null, wanted: Record<string, unknown[]>, ourCount: number): InstallPlan {
  const parsed = parseGeminiSettings(original ?? '');
  if (!parsed.ok) return { ok: false, error: `${parsed.error}; fix or move the file, nothing was changed` };
  const raw = parsed.raw;
  const hadOurs = countOurs(raw) > 0;
  if (hadOurs && hasExactly(raw, wanted, ourCount)) return { ok: true, changed: false, reason: 'our hooks are already registered' };
  const next = withoutOurs(raw);
  const hooks = { ...(isRecord(next['hooks']) ? next['hooks'] : {}) };
  for (const [event, groups] of Object.entries(wanted)) {
    const existing: unknown = hooks[event];
    hooks[event] = [...(Array.isArray(existing) ? (existing as unknown[]) : []), ...groups];
  }
  next['hooks'] = hooks;
  return { ok: true, changed: true, text: serialize(next, original), backup: original === null ? 'none' : hadOurs ? 'keep' : 'write' };
}

export function planUninstall(current: string | null, backup: string | null): UninstallPlan {
  if (current === null) return { ok: true, action: 'unchanged', reason: 'the settings file does not exist' };
  const parsed = parseGeminiSettings(current);
  if (!parsed.ok) return { ok: false, error: `${parsed.error}; nothing was changed` };
  if (countOurs(parsed.raw) === 0) return { ok: true, action: 'unchanged', reason: 'no tokenless hooks are registered here' };
  const rest = withoutOurs(parsed.raw);
  if (backup !== null) {
    const before = parseGeminiSettings(backup);
    if (before.ok && isDeepStrictEqual(before.raw, rest)) return { ok: true, action: 'write', text: backup, restoredBackup: true };
  } else if (Object.keys(rest).length === 0) {
    return { ok: true, action: 'delete' };
  }
  return { ok: true, action: 'write', text: serialize(rest, current), restoredBackup: false };
}

function hasExactly(raw: Record<string, unknown>, wanted: Record<string, unknown[]>, ourCount: number): boolean {
  if (countOurs(raw) !== ourCount) return false;
  const hooks = raw['hooks'];
  if (!isRecord(hooks)) return false;
  return Object.entries(wanted).every(([event, groups]) => {
    const present = hooks[event];
    return Array.isArray(present) && groups.every((group) => present.some((existing) => isDeepStrictEqual(existing, group)));
  });
}

/** JSON in the file's own indentation (two spaces for a new file), ending in a newline unless the original did not. */
function serialize(value: Record<string, unknown>, original: string | null): string {
  const indent = (original === null ? null : /^([ \t]+)"/m.exec(original))?.[1] ?? '  ';
  const newline = original === null || original.trim() === '' || original.endsWith('\n') ? '\n' : '';
  return `${JSON.stringify(value, null, indent)}${newline}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
