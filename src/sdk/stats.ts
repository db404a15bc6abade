/**
 * TokenlessStats: the read-only query side of stats.db for library users, the same queries `tokenless stats` runs.
 * Every call opens the database read-only and closes it again, so a stats client never holds a lock a hook process
 * waits on, and a damaged file fails the query that reads it, never a lifecycle call.
 */
import { keptOf, parseStashKeys, type KeptRecord } from '../store/stats-kept.ts';
import { getRecord, sessionRecords, withStatsReader } from '../store/stats-client.ts';
import { inspectStats, type StatsHealth } from '../store/stats-health.ts';
import {
  compareSessions,
  DEFAULT_LIMIT,
  emptyTotals,
  listRecords,
  summarize,
  type Comparison,
  type ListedRow,
  type Summary,
  type SummaryQuery,
} from '../store/stats-query.ts';
import type { StoredStatsRow } from '../store/stats.ts';

/** What is kept of a record's two sides (stats.db holds no tool output): sizes, counts, digests, retrieve commands. */
export type RecordDiff = KeptRecord;

export class TokenlessStats {
  readonly dataDir: string;

  constructor(dataDir: string) {
    this.dataDir = dataDir;
  }

  /** Whether stats.db exists, is healthy and recording, and how many records it holds. */
  status(): StatsHealth {
    return inspectStats(this.dataDir);
  }

  /** Totals and roll-ups (by operation, tool, session, day) over the latest `limit` records (default 10,000). */
  summary(query: SummaryQuery = {}): Summary {
    return withStatsReader(this.dataDir, emptySummary(query), (db) => summarize(db, query));
  }

  /** The latest records, newest first, metrics only. */
  list(options: { readonly limit?: number; readonly session?: string } = {}): ListedRow[] {
    return withStatsReader(this.dataDir, [], (db) => listRecords(db, options.limit ?? 20, options.session));
  }

  /** One record: metrics, digests and line counts (stats.db keeps no before/after text). */
  show(id: number): StoredStatsRow | null {
    return withStatsReader(this.dataDir, null, (db) => getRecord(db, id));
  }

  /** What is kept of a record's before and after, with `tokenless retrieve` commands for its stashed originals. */
  diff(id: number): RecordDiff | null {
    const row = this.show(id);
    return row === null ? null : keptOf(row, parseStashKeys(row.stash_keys));
  }

  /** The records of one session (optionally one tool use), oldest first. */
  session(session: string, toolUseId?: string): StoredStatsRow[] {
    return withStatsReader(this.dataDir, [], (db) => sessionRecords(db, session, toolUseId));
  }

  /** A dry-run baseline session against a session with Tokenless on; the client does not check which is which. */
  compare(baseline: string, session: string, limit = DEFAULT_LIMIT): Comparison {
    const empty = { baseline: { session: baseline, totals: emptyTotals(), byOperation: [] }, session: { session, totals: emptyTotals(), byOperation: [] } };
    return withStatsReader(this.dataDir, empty, (db) => compareSessions(db, baseline, session, limit));
  }
}

function emptySummary(query: SummaryQuery): Summary {
  return {
    limit: query.limit ?? DEFAULT_LIMIT,
    since: query.since ?? null,
    mode: query.mode ?? 'active',
    totals: emptyTotals(),
    dryRun: emptyTotals(),
    byOperation: [],
    byTool: [],
    bySession: [],
    byDay: [],
  };
}
