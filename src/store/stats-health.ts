import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from './sqlite.ts';
import { STATS_FILE, statsEnabled } from './stats.ts';

export interface StatsHealth {
  readonly health: 'ok' | 'missing' | 'damaged';
  readonly detail: string | null;
  readonly enabled: boolean;
  readonly records: number;
}

/** Opens stats.db read-only when it exists and checks it; damage is reported, never repaired silently. */
export function inspectStats(dataDir: string): StatsHealth {
  if (!existsSync(join(dataDir, STATS_FILE))) return { health: 'missing', detail: 'no operation recorded yet', enabled: true, records: 0 };
  try {
    const db = openDatabase(dataDir, STATS_FILE, [], { readonly: true });
    try {
      const check = db.pragma('quick_check', { simple: true });
      if (check !== 'ok') return { health: 'damaged', detail: `quick_check: ${String(check)}`, enabled: false, records: 0 };
      const row = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM operations').get();
      return { health: 'ok', detail: null, enabled: statsEnabled(db), records: row?.n ?? 0 };
    } finally {
      db.close();
    }
  } catch (error) {
    return { health: 'damaged', detail: error instanceof Error ? error.message : String(error), enabled: false, records: 0 };
  }
}

