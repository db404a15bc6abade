/**
 * Runtime configuration: environment variables over an optional `config.json` in the data dir, both validated with
 * zod. Read once per process; cheap enough for the hook path (one small file read).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { resolveDataDir } from './data-dir.ts';
import { STASH_DEFAULTS, type StashLimits } from './stash-limits.ts';
import { describeIssues } from '../protocol/issues.ts';
import { isTruthyFlag, searchPathSharingEnabled } from './flags.ts';

export const CONFIG_FILE = 'config.json';

export const ConfigFile = z.object({
  dry_run: z.optional(z.boolean()),
  exclude_commands: z.optional(z.array(z.string())),
  search_path_sharing: z.optional(z.boolean()),
  stash_ttl_days: z.optional(z.number().check(z.positive())),
  stash_max_mb: z.optional(z.number().check(z.positive())),
});
export type ConfigFile = z.infer<typeof ConfigFile>;

export interface RuntimeConfig {
  readonly dataDir: string;
  /** Record what would have been done without changing any output. */
  readonly dryRun: boolean;
  /** TOKENLESS_DISABLED=1: every lifecycle passes through. */
  readonly disabled: boolean;
  readonly searchPathSharing: boolean;
  /** Program names or command prefixes the rewriter must leave alone. */
  readonly excludeCommands: readonly string[];
  readonly stashLimits: StashLimits;
  /** A config file that failed validation: reported by `stats status`/`doctor`, never fatal. */
  readonly configError: string | null;
}

function readConfigFile(dataDir: string): { file: ConfigFile; error: string | null } {
  let text: string;
  try {
    text = readFileSync(join(dataDir, CONFIG_FILE), 'utf8');
  } catch {
    return { file: {}, error: null };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { file: {}, error: `${CONFIG_FILE}: not valid JSON (${error instanceof Error ? error.message : 'parse error'})` };
  }
  const parsed = ConfigFile.safeParse(raw);
  return parsed.success
    ? { file: parsed.data, error: null }
    : { file: {}, error: `${CONFIG_FILE}: ${describeIssues(parsed.error)}` };
}

export function loadConfig(env: Readonly<Record<string, string | undefined>> = process.env): RuntimeConfig {
  const dataDir = resolveDataDir(env);
  const { file, error } = readConfigFile(dataDir);
  const dryRunEnv = env['TOKENLESS_DRY_RUN'];
  const sharingEnv = env['TOKENLESS_SEARCH_PATH_SHARING_ENABLED'];
  return {
    dataDir,
    dryRun: dryRunEnv !== undefined ? isTruthyFlag(dryRunEnv) : file.dry_run === true,
    disabled: isTruthyFlag(env['TOKENLESS_DISABLED']),
    searchPathSharing: sharingEnv !== undefined ? searchPathSharingEnabled(env) : file.search_path_sharing ?? true,
    excludeCommands: file.exclude_commands ?? [],
    stashLimits: {
      ttlMs: file.stash_ttl_days !== undefined ? file.stash_ttl_days * 86_400_000 : STASH_DEFAULTS.ttlMs,
      maxTotalBytes: file.stash_max_mb !== undefined ? file.stash_max_mb * 1024 * 1024 : STASH_DEFAULTS.maxTotalBytes,
      maxEntryBytes: STASH_DEFAULTS.maxEntryBytes,
    },
    configError: error,
  };
}
