/**
 * `syt init --harness copilot`: the "settings file" is a hooks file of our own in Copilot's hooks directory
 * (settings.ts), holding one postToolUse command hook. Install writes it, uninstall deletes it; a file at that path
 * that is not ours (anything but hooks of ours) is never overwritten or deleted. No preToolUse hook: Copilot judges
 * its permission rules on the rewritten command (docs/agents/copilot.md), so commands run exactly as typed.
 */
import { isOurHook, isRecord } from '../hook-settings.ts';
import type { InstallPlan, InstallTarget, UninstallPlan } from '../types.ts';

/** Copilot kills a command hook after timeoutSec and keeps the result as it was. */
const TIMEOUT_SECONDS = 30;

export function hooksFile(wrapperCommand: string): string {
  const hook = { type: 'command', bash: `${wrapperCommand} hook post_tool`, timeoutSec: TIMEOUT_SECONDS };
  return `${JSON.stringify({ version: 1, hooks: { postToolUse: [hook] } }, null, 2)}\n`;
}

/** Our hook commands in a Copilot hooks file (`bash` is the command), or null when the file is not ours. */
export function ourHookCommands(text: string): string[] | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(raw) || !isRecord(raw['hooks'])) return null;
  const entries = Object.values(raw['hooks']).flatMap((hooks) => (Array.isArray(hooks) ? (hooks as unknown[]) : [null]));
  const commands = entries.map((entry) => (isRecord(entry) && typeof entry['bash'] === 'string' && isOurHook({ type: 'command', command: entry['bash'] }) ? entry['bash'] : null));
  return commands.length > 0 && commands.every((command) => command !== null) ? (commands) : null;
}

export function planInstall(original: string | null, target: InstallTarget): InstallPlan {
  if (target.kind !== 'command') return { ok: false, error: 'Copilot CLI runs command hooks only (drop --http)' };
  if (original !== null && ourHookCommands(original) === null) return { ok: false, error: 'a file that is not ours is already at this path; move it away first' };
  const text = hooksFile(target.wrapperCommand);
  if (original === text) return { ok: true, changed: false, reason: 'our hooks are already registered' };
  return { ok: true, changed: true, text, backup: 'none' };
}

export function planUninstall(current: string | null): UninstallPlan {
  if (current === null) return { ok: true, action: 'unchanged', reason: 'no hooks file of ours here' };
  if (ourHookCommands(current) === null) return { ok: false, error: 'the file at this path is not ours; left alone' };
  return { ok: true, action: 'delete' };
}
