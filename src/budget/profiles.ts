import * as z from 'zod/mini';
import type { BudgetProfile } from './types.ts';

/** The seed's three profiles (persistent / session / output reserve); ephemeral gets the rest. */
export const BUILTIN_PROFILES = {
  chat: { name: 'chat', persistent: 0.05, session: 0.2, outputReserve: 0.25 },
  agentic: { name: 'agentic', persistent: 0.15, session: 0.35, outputReserve: 0.2 },
  rag: { name: 'rag', persistent: 0.05, session: 0.1, outputReserve: 0.25 },
} as const satisfies Record<string, BudgetProfile>;

export type BuiltinProfileName = keyof typeof BUILTIN_PROFILES;
export const DEFAULT_PROFILE: BuiltinProfileName = 'agentic';
/** Claude's standard window; a config may name another. */
export const DEFAULT_CONTEXT_WINDOW = 200_000;

const share = z.number().check(z.gte(0), z.lte(1));

/** A custom profile as written in config (`budget.profiles.<name>`). */
export const ProfileSpec = z
  .object({ persistent: share, session: share, output_reserve: share })
  .check(
    z.refine((p) => p.persistent + p.session + p.output_reserve <= 1, {
      message: 'persistent + session + output_reserve must not exceed 1',
    }),
  );
export type ProfileSpec = z.infer<typeof ProfileSpec>;

/** The ephemeral share a profile leaves: everything not reserved or given to the other two layers. */
export function ephemeralShare(profile: BudgetProfile): number {
  return Math.max(0, 1 - profile.persistent - profile.session - profile.outputReserve);
}

/** Finds a profile by name: custom profiles from config first (they may override a built-in name), then built-ins. */
export function resolveProfile(name: string, custom: Readonly<Record<string, ProfileSpec>> = {}): BudgetProfile | null {
  const spec = custom[name];
  if (spec !== undefined) return { name, persistent: spec.persistent, session: spec.session, outputReserve: spec.output_reserve };
  return isBuiltin(name) ? BUILTIN_PROFILES[name] : null;
}

export function profileNames(custom: Readonly<Record<string, ProfileSpec>> = {}): string[] {
  return [...new Set([...Object.keys(BUILTIN_PROFILES), ...Object.keys(custom)])];
}

function isBuiltin(name: string): name is BuiltinProfileName {
  return Object.hasOwn(BUILTIN_PROFILES, name);
}
