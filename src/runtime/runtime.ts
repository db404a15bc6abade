import type { RuntimeConfig } from '../config/config.ts';
import type { FileFilter } from '../filters/file/filter.ts';
import type { Disposition } from '../protocol/schemas.ts';
import { ReadLedger } from '../store/reads.ts';
import { StashStore } from '../store/stash.ts';
import { StatsRecorder } from '../store/stats.ts';

/**
 * Per-process handles for one configuration. Both stores open lazily: a pre_tool decision or a passthrough never
 * loads the SQLite addon. No session state lives here; every call carries its own attribution.
 */
export class Runtime {
  readonly config: RuntimeConfig;
  readonly stats: StatsRecorder;
  readonly now: () => number;
  /** False for previews (`tokenless filter`): what nobody showed a model is not a saving, so no stats row is written. */
  readonly recordsStats: boolean;
  /** The person's and the trusted project's filter files, loaded by the entry point that needs them (pre_tool, run). */
  readonly fileFilters: readonly FileFilter[];
  /**
   * What the last pre_tool or post_tool call ended with: the hook-call log's decline reason. One value, not a list:
   * `tokenless serve` keeps one Runtime for every call it answers.
   */
  lastDisposition: Disposition | undefined = undefined;
  #stash: StashStore | null = null;
  #reads: ReadLedger | null = null;

  constructor(config: RuntimeConfig, now: () => number = Date.now, options: { readonly recordsStats?: boolean; readonly fileFilters?: readonly FileFilter[] } = {}) {
    this.config = config;
    this.now = now;
    this.recordsStats = options.recordsStats ?? true;
    this.fileFilters = options.fileFilters ?? [];
    this.stats = new StatsRecorder(config.dataDir, now);
  }

  get stash(): StashStore {
    this.#stash ??= StashStore.open(this.config.dataDir, this.config.stashLimits, this.now);
    return this.#stash;
  }

  /** Which Reads each session's model still holds (Claude Code re-read pointers); opened on the first Read. */
  get reads(): ReadLedger {
    this.#reads ??= ReadLedger.open(this.config.dataDir, this.now);
    return this.#reads;
  }

  close(): void {
    this.#reads?.close();
    this.#reads = null;
    this.#stash?.close();
    this.#stash = null;
    this.stats.close();
  }
}
