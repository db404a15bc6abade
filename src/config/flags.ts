type Env = Readonly<Record<string, string | undefined>>;

/** `1`, `true`, `yes`, `on` (any case) mean on; anything else, or unset, means off. */
export function isTruthyFlag(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

/** CONTRACTS.md: unset, `1`, `true`, `yes` (any case) mean on; empty or anything else means off. */
export function searchPathSharingEnabled(env: Env): boolean {
  const value = env['TOKENLESS_SEARCH_PATH_SHARING_ENABLED'];
  if (value === undefined) return true;
  return ['1', 'true', 'yes'].includes(value.toLowerCase());
}
