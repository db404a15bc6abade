/**
 * Claude Code settings files: the parts we read (permissions, hooks), and reading them for the permission check.
 * Validation is loose: every key we do not know is kept and ignored. Where the files live is ./paths.ts.
 */
import { readFileSync } from 'node:fs';
import * as z from 'zod/mini';
import type { PermissionRules } from './permissions.ts';

const RuleList = z.optional(z.array(z.string()));

export const SettingsPermissions = z.looseObject({ allow: RuleList, deny: RuleList, ask: RuleList, defaultMode: z.optional(z.string()) });

export const HookEntry = z.looseObject({ type: z.string(), command: z.optional(z.string()), url: z.optional(z.string()), timeout: z.optional(z.number()) });
export type HookEntry = z.infer<typeof HookEntry>;

export const HookGroup = z.looseObject({ matcher: z.optional(z.string()), hooks: z.array(HookEntry) });
export type HookGroup = z.infer<typeof HookGroup>;

export const SettingsFile = z.looseObject({
  permissions: z.optional(SettingsPermissions),
  hooks: z.optional(z.record(z.string(), z.array(HookGroup))),
});
export type SettingsFile = z.infer<typeof SettingsFile>;


export interface LoadedRules {
  readonly rules: PermissionRules;
  /** Why some file's rules are unknown (present but unreadable or invalid), or null. */
  readonly unknown: string | null;
}

/** Reads and merges the permission rules of the given files; a missing file contributes nothing. */
export function loadPermissionRules(paths: readonly string[], read: (path: string) => string | null = readIfExists): LoadedRules {
  const allow: string[] = [];
  const deny: string[] = [];
  const ask: string[] = [];
  for (const path of paths) {
    let text: string | null;
    try {
      text = read(path);
    } catch (error) {
      return { rules: { allow, deny, ask }, unknown: `${path}: unreadable (${error instanceof Error ? error.message : String(error)})` };
    }
    if (text === null || text.trim() === '') continue;
    const parsed = parseSettingsText(text);
    if (!parsed.ok) return { rules: { allow, deny, ask }, unknown: `${path}: ${parsed.error}` };
    const permissions = parsed.settings.permissions;
    allow.push(...(permissions?.allow ?? []));
    deny.push(...(permissions?.deny ?? []));
    ask.push(...(permissions?.ask ?? []));
  }
  return { rules: { allow, deny, ask }, unknown: null };
}

export type ParsedSettings = { ok: true; settings: SettingsFile; raw: Record<string, unknown> } | { ok: false; error: string };

/** Parses a settings file's text; empty text is an empty object. */
export function parseSettingsText(text: string): ParsedSettings {
  if (text.trim() === '') return { ok: true, settings: {}, raw: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not valid JSON (${error instanceof Error ? error.message : 'parse error'})` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, error: 'not a JSON object' };
  const parsed = SettingsFile.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    return { ok: false, error: `unexpected shape: ${issues.join('; ')}` };
  }
  return { ok: true, settings: parsed.data, raw: raw as Record<string, unknown> };
}

function readIfExists(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw error;
  }
}
