/**
 * What every harness's settings file has in common for `syt init`: a `hooks` object of event → hook groups, ours
 * recognised by the command or URL they end in. The install and uninstall plans are pure text-to-text: every other
 * key and hook is kept as it was, the first install keeps a backup, and uninstall brings back the backup's exact
 * bytes when nothing else changed meanwhile. Each harness supplies its dialect: how to parse its file, which groups
 * are ours.
 */
import { isDeepStrictEqual } from 'node:util';
import type { InstallPlan, InstallTarget, UninstallPlan } from './types.ts';

export type ParsedSettings = { readonly ok: true; readonly raw: Record<string, unknown> } | { readonly ok: false; readonly error: string };

export interface SettingsDialect {
  parse(text: string): ParsedSettings;
  /** Our hook groups for a target, by event, in the order they are appended. */
  ourGroups(target: InstallTarget): Record<string, readonly unknown[]>;
}

/** Our hooks, whatever binary path or port they were written with. */
export function isOurHook(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const { type, command, url } = entry as { type?: unknown; command?: unknown; url?: unknown };
  if (type === 'command' && typeof command === 'string') return /(^|[\s/'"])(tokenless|syt|cli\.c?js)['"]? hook (pre_tool|post_tool|session)$/.test(command);
  // httpHookPath (src/server/http-hooks.ts) on loopback, for any harness.
  if (type === 'http' && typeof url === 'string') return /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/tokenless\/[a-z0-9-]+\/(pre_tool|post_tool|session)$/.test(url);
  return false;
}

/** original null: the file does not exist. */
export function planInstall(dialect: SettingsDialect, original: string | null, target: InstallTarget): InstallPlan {
  const parsed = dialect.parse(original ?? '');
  if (!parsed.ok) return { ok: false, error: `${parsed.error}; fix or move the file, nothing was changed` };
  const raw = parsed.raw;
  const wanted = dialect.ourGroups(target);
  const hadOurs = countOurs(raw) > 0;
  if (hadOurs && hasExactly(raw, wanted)) return { ok: true, changed: false, reason: 'our hooks are already registered' };
  const next = withoutOurs(raw);
  const hooks = { ...(isRecord(next['hooks']) ? next['hooks'] : {}) };
  for (const [event, groups] of Object.entries(wanted)) {
    const existing: unknown = hooks[event];
    hooks[event] = [...(Array.isArray(existing) ? (existing as unknown[]) : []), ...groups];
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
export function planUninstall(dialect: SettingsDialect, current: string | null, backup: string | null): UninstallPlan {
  if (current === null) return { ok: true, action: 'unchanged', reason: 'the settings file does not exist' };
  const parsed = dialect.parse(current);
  if (!parsed.ok) return { ok: false, error: `${parsed.error}; nothing was changed` };
  if (countOurs(parsed.raw) === 0) return { ok: true, action: 'unchanged', reason: 'no tokenless hooks are registered here' };
  const rest = withoutOurs(parsed.raw);
  if (backup !== null) {
    const before = dialect.parse(backup);
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
    for (const group of groups) count += ourHooksIn(group);
  }
  return count;
}

function ourHooksIn(group: unknown): number {
  return isRecord(group) && Array.isArray(group['hooks']) ? group['hooks'].filter(isOurHook).length : 0;
}

/** Exactly our wanted groups, each in its event, and no other hook of ours anywhere. */
function hasExactly(raw: Record<string, unknown>, wanted: Record<string, readonly unknown[]>): boolean {
  const expected = Object.values(wanted).reduce((sum, groups) => sum + groups.reduce<number>((n, group) => n + ourHooksIn(group), 0), 0);
  if (countOurs(raw) !== expected) return false;
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

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
