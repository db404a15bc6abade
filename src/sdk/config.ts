/**
 * The SDK's configuration object, validated with zod at the boundary. It is the whole configuration: unlike the CLI,
 * the SDK reads no environment variable and no config file except for the data dir's default, so two SDK instances
 * in one process never influence each other.
 */
import * as z from 'zod/mini';
import { describeIssues } from '../protocol/issues.ts';
import type { RuntimeConfig } from '../config/config.ts';
import { RETRIEVE_TOOL_NAME } from '../runtime/before-model.ts';
import { resolveDataDir } from '../config/data-dir.ts';
import { STASH_DEFAULTS } from '../config/stash-limits.ts';
import { TokenlessError } from './errors.ts';

const nonEmpty = z.string().check(z.minLength(1));
const positive = z.number().check(z.positive());

/** Tool names as every function-calling provider accepts them. */
const toolName = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/));

export const TokenlessSdkConfig = z.strictObject({
  /** Where stash.db and stats.db live; default `$TOKENLESS_DATA_DIR`, else `~/.tokenless` (shared with the CLI). */
  dataDir: z.optional(nonEmpty),
  /** Record what would have been done; every output stays unchanged. */
  dryRun: z.optional(z.boolean()),
  /** Every lifecycle passes through (the SDK's TOKENLESS_DISABLED). */
  disabled: z.optional(z.boolean()),
  /** Lossless search-path sharing for `path:line:text` API responses; on by default. */
  searchPathSharing: z.optional(z.boolean()),
  /** Program names or command prefixes pre_tool must leave alone. */
  excludeCommands: z.optional(z.array(nonEmpty)),
  /** The name under which the retrieve tool is published (default `tokenless_retrieve`). */
  retrieveToolName: z.optional(toolName),
  /** The program prefix of rewritten commands, already shell-quoted; default: node on this package's dist/cli.js. */
  wrapperCommand: z.optional(nonEmpty),
  stash: z.optional(z.strictObject({ ttlDays: z.optional(positive), maxMb: z.optional(positive) })),
});
export type TokenlessSdkConfig = z.input<typeof TokenlessSdkConfig>;

export interface ResolvedSdkConfig {
  readonly runtime: RuntimeConfig;
  readonly retrieveToolName: string;
  readonly wrapperCommand: string | undefined;
}

/** Validates the config object; a bad one throws `invalid_input` naming the offending fields. */
export function resolveSdkConfig(raw: unknown): ResolvedSdkConfig {
  const parsed = TokenlessSdkConfig.safeParse(raw ?? {});
  if (!parsed.success) throw new TokenlessError('invalid_input', `invalid TokenlessSdk config: ${describeIssues(parsed.error)}`);
  const config = parsed.data;
  return {
    runtime: {
      dataDir: config.dataDir ?? resolveDataDir(process.env),
      dryRun: config.dryRun ?? false,
      disabled: config.disabled ?? false,
      searchPathSharing: config.searchPathSharing ?? true,
      excludeCommands: config.excludeCommands ?? [],
      stashLimits: {
        ttlMs: config.stash?.ttlDays !== undefined ? config.stash.ttlDays * 86_400_000 : STASH_DEFAULTS.ttlMs,
        maxTotalBytes: config.stash?.maxMb !== undefined ? config.stash.maxMb * 1024 * 1024 : STASH_DEFAULTS.maxTotalBytes,
        maxEntryBytes: STASH_DEFAULTS.maxEntryBytes,
      },
      configError: null,
    },
    retrieveToolName: config.retrieveToolName ?? RETRIEVE_TOOL_NAME,
    wrapperCommand: config.wrapperCommand,
  };
}
