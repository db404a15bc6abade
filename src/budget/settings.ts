/**
 * Budget settings from the `budget` key of the data dir's config.json (validated here; the core config ignores the
 * key): default profile, context window, staleness, and custom profiles.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { describeIssues } from '../protocol/issues.ts';
import { DEFAULT_STALE_AFTER_TURNS } from './ladder.ts';
import { DEFAULT_CONTEXT_WINDOW, DEFAULT_PROFILE, ProfileSpec, resolveProfile } from './profiles.ts';
import type { BudgetProfile } from './types.ts';

export const BudgetSettingsSpec = z.object({
  profile: z.optional(z.string()),
  context_window: z.optional(z.number().check(z.int(), z.positive())),
  stale_after_turns: z.optional(z.number().check(z.int(), z.nonnegative())),
  profiles: z.optional(z.record(z.string(), ProfileSpec)),
});
export type BudgetSettingsSpec = z.infer<typeof BudgetSettingsSpec>;

export interface BudgetSettings {
  readonly profileName: string;
  readonly contextWindow: number;
  readonly staleAfterTurns: number;
  readonly customProfiles: Readonly<Record<string, ProfileSpec>>;
  /** A `budget` section that failed validation: the defaults apply and the reason is reported. */
  readonly error: string | null;
}

export function budgetSettingsFrom(raw: unknown): BudgetSettings {
  const parsed = BudgetSettingsSpec.safeParse(raw ?? {});
  const spec = parsed.success ? parsed.data : {};
  return {
    profileName: spec.profile ?? DEFAULT_PROFILE,
    contextWindow: spec.context_window ?? DEFAULT_CONTEXT_WINDOW,
    staleAfterTurns: spec.stale_after_turns ?? DEFAULT_STALE_AFTER_TURNS,
    customProfiles: spec.profiles ?? {},
    error: parsed.success ? null : `config.json budget: ${describeIssues(parsed.error)}`,
  };
}

export function loadBudgetSettings(dataDir: string): BudgetSettings {
  try {
    const raw: unknown = JSON.parse(readFileSync(join(dataDir, 'config.json'), 'utf8'));
    return budgetSettingsFrom(typeof raw === 'object' && raw !== null && 'budget' in raw ? raw.budget : {});
  } catch {
    return budgetSettingsFrom({});
  }
}

/** The profile to use: an explicit name, else the configured one; null when the name is unknown. */
export function pickProfile(settings: BudgetSettings, name?: string): BudgetProfile | null {
  return resolveProfile(name ?? settings.profileName, settings.customProfiles);
}
