/**
 * Defaults, overridable through config: 7 days covers a resumed session the next working day or after a weekend's
 * pause (headroom's 30 minutes loses markers across a compaction, RTK keeps 30 days); 256 MiB of mostly gzipped text
 * is 1-2 GB of raw tool output, bounded for a laptop; one original over 32 MiB is not stashed (its candidate is then
 * dropped as recoverability_unavailable) because no agent reads that back through a shell. They live in config, which
 * sets them, so that config reads no store module; the store (src/store/stash.ts) enforces them.
 */
export const STASH_DEFAULTS = {
  ttlMs: 7 * 24 * 60 * 60 * 1000,
  maxTotalBytes: 256 * 1024 * 1024,
  maxEntryBytes: 32 * 1024 * 1024,
} as const;

export interface StashLimits {
  readonly ttlMs: number;
  readonly maxTotalBytes: number;
  readonly maxEntryBytes: number;
}
