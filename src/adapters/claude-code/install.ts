/**
 * `syt init` for Claude Code, as pure text-to-text plans: which bytes the settings file gets, and which bytes restore
 * it. One hook group per event carries all our work (several hooks on one tool run in parallel on the original
 * output and the last to finish wins, FINDINGS.md section 4). Every other key and hook is kept as it was; uninstall
 * brings back the backup's exact bytes when nothing else changed meanwhile.
 */
import { isDeepStrictEqual } from 'node:util';
import type { InstallPlan, InstallTarget as HookTarget, UninstallPlan } from '../../harness/types.ts';
import { TOKEN_HEADER, httpHookPath, type HookEndpoint } from '../../server/http-hooks.ts';
import { parseSettingsText, type HookEntry, type HookGroup } from './settings.ts';

export type { HookTarget };

/** The path prefix of our HTTP hook URLs; also how uninstall recognises them. */
const HTTP_HOOK_PATH = httpHookPath('claude-code');

const EVENTS: readonly { event: string; matcher?: string; lifecycle: HookEndpoint }[] = [
  { event: 'PreToolUse', matcher: 'Bash', lifecycle: 'pre_tool' },
  // Glob has no contract in post_tool (CONTRACTS.md), so it is not worth a call.
  { event: 'PostToolUse', matcher: 'Bash|Grep|Read|Glob|WebFetch|mcp__.*', lifecycle: 'post_tool' },
  // The context budget: one line when a ladder threshold is crossed, and the snapshot kept across a compaction.
  { event: 'UserPromptSubmit', lifecycle: 'session' },
  { event: 'SessionStart', lifecycle: 'session' },
  { event: 'PreCompact', lifecycle: 'session' },
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

/** Our hooks, whatever binary path or port they were written with. */
export function isOurHook(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const { type, command, url } = entry as { type?: unknown; command?: unknown; url?: unknown };
  if (type === 'command' && typeof command === 'string') return /(^|[\s/'"])(tokenless|syt|cli\.c?js)['"]? hook (pre_tool|post_tool|session)$/.test(command);
  if (type === 'http' && typeof url === 'string') return /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/tokenless\/claude-code\/(pre_tool|post_tool|session)$/.test(url);
  return false;
}

/** original null: the file does not exist. */
export function planInstall(original: string | null, target: HookTarget): InstallPlan {
  const parsed = parseSettingsText(original ?? '');
  if (!parsed.ok) return { ok: false, error: `${parsed.error}; fix or move the file, nothing was changed` };
  const raw = parsed.raw;
  const wanted = ourGroups(target);
  const hadOurs = countOurs(raw) > 0;
  if (hadOurs && hasExactly(raw, wanted)) return { ok: true, changed: false, reason: 'our hooks are already registered' };
  const next = withoutOurs(raw);
  const hooks = { ...(isRecord(next['hooks']) ? next['hooks'] : {}) };
  for (const [event, group] of Object.entries(wanted)) {
    const existing: unknown = hooks[event];
    hooks[event] = [...(Array.isArray(existing) ? (existing as unknown[]) : []), group];
  }
  next['hooks'] = hooks;
  return {
    ok: true,
    changed: true,
    text: serialize(next, original),
    // The first install keeps the untouched original; a re-install (new path, --http) keeps that first backup.
    backup: original === null ? 'none' : hadOurs ? 'keep' : 'write',
  };
}

/** backup: the bytes saved by the first install, or null when there is none (the file did not exist before). */
export function planUninstall(current: string | null, backup: string | null): UninstallPlan {
  if (current === null) return { ok: true, action: 'unchanged', reason: 'the settings file does not exist' };
  const parsed = parseSettingsText(current);
  if (!parsed.ok) return { ok: false, error: `${parsed.error}; nothing was changed` };
  if (countOurs(parsed.raw) === 0) return { ok: true, action: 'unchanged', reason: 'no tokenless hooks are registered here' };
  const rest = withoutOurs(parsed.raw);
  if (backup !== null) {
    const before = parseSettingsText(backup);
    if (before.ok && isDeepStrictEqual(before.raw, rest)) return { ok: true, action: 'write', text: backup, restoredBackup: true };
  } else if (Object.keys(rest).length === 0) {
    return { ok: true, action: 'delete' };
  }
  return { ok: true, action: 'write', text: serialize(rest, current), restoredBackup: false };
}

/** The settings without any hook of ours; groups, events and `hooks` that only held ours disappear with them. */
export function withoutOurs(raw: Record<string, unknown>): Record<string, unknown> {
  const hooks = raw['hooks'];
  if (!isRecord(hooks)) return { ...raw };
  const kept: Record<string, unknown> = {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      kept[event] = groups;
      continue;
    }
    const left = groups.flatMap((group: unknown) => {
      if (!isRecord(group) || !Array.isArray(group['hooks'])) return [group];
      const entries = (group['hooks'] as unknown[]).filter((entry) => !isOurHook(entry));
      if (entries.length === group['hooks'].length) return [group];
      return entries.length === 0 ? [] : [{ ...group, hooks: entries }];
    });
    if (left.length > 0) kept[event] = left;
  }
  const out = { ...raw };
  if (Object.keys(kept).length > 0) out['hooks'] = kept;
  else delete out['hooks'];
  return out;
}

export function countOurs(raw: Record<string, unknown>): number {
  const hooks = raw['hooks'];
  if (!isRecord(hooks)) return 0;
  let count = 0;
  for (const groups of Object.values(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) if (isRecord(group) && Array.isArray(group['hooks'])) count += group['hooks'].filter(isOurHook).length;
  }
  return count;
}

/** Exactly our wanted groups, one per event, and no other hook of ours anywhere. */
function hasExactly(raw: Record<string, unknown>, wanted: Record<string, HookGroup>): boolean {
  if (countOurs(raw) !== Object.keys(wanted).length) return false;
  const hooks = raw['hooks'];
  if (!isRecord(hooks)) return false;
  return Object.entries(wanted).every(([event, group]) => {
    const groups = hooks[event];
    return Array.isArray(groups) && groups.some((existing) => isDeepStrictEqual(existing, group));
  });
}

/** JSON in the file's own indentation (two spaces for a new file), ending in a newline unless the original did not. */
function serialize(value: Record<string, unknown>, original: string | null): string {
  const indentMatch = original === null ? null : /^([ \t]+)"/m.exec(original);
  const indent = indentMatch?.[1] ?? '  ';
  const newline = original === null || original.trim() === '' || original.endsWith('\n') ? '\n' : '';
  return `${JSON.stringify(value, null, indent)}${newline}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
