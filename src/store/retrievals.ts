/**
 * Views that cost the agent a turn: retrievals of a stashed original and re-runs of a command just shown through a
 * view (stats.db, migration 4). Sizes only, never output. Each record also re-decides its project's switch for that
 * view kind: a kind whose views are retrieved or re-run more than 1 time in 5 there gets lossless views only.
 */
import * as z from 'zod/mini';
import type { SqlDatabase } from './sqlite.ts';

export interface RetrievalRecord {
  readonly sessionId: string;
  readonly kind: 'retrieve' | 'rerun';
  readonly stashKey: string | null;
  readonly viewKind: string | null;
  readonly project: string | null;
  /** whole: the original printed in full; targeted: --lines/--grep/--search; rerun: the command ran again. */
  readonly scope: 'whole' | 'targeted' | 'rerun';
  /** For a re-run: the same line (or a limiter of it), or a file reader over a file the view's command named. */
  readonly how?: 'same_line' | 'file_read' | undefined;
  readonly printedBytes: number;
  readonly printedTokens: number;
  /** The program only (`git`, `npm`): an argument may hold a secret. */
  readonly program?: string | undefined;
}

/**
 * A kind switches when more than this share of its views in a project cost a turn, and at least MIN_TURNS did: one
 * retrieval of one view is a single look, not a pattern.
 */
export const LOSSLESS_SWITCH = { share: 0.2, minTurns: 2 } as const;

export function recordRetrieval(db: SqlDatabase, record: RetrievalRecord, now: number): void {
  db.transaction(() => {
    db.prepare(
      `INSERT INTO retrievals (ts, session_id, kind, stash_key, view_kind, project, scope, how, printed_bytes, printed_tokens, program)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      now,
      record.sessionId,
      record.kind,
      record.stashKey,
      record.viewKind,
      record.project,
      record.scope,
      record.how ?? null,
      record.printedBytes,
      record.printedTokens,
      record.program ?? null,
    );
    if (record.project !== null && record.viewKind !== null) updateSwitch(db, record.project, record.viewKind, now);
  }).immediate();
}

/** Views of a kind in a project, and how many of them cost a turn (a view retrieved twice counts once). */
export function kindCounts(db: SqlDatabase, project: string, viewKind: string): { views: number; turns: number } {
  const views =
    db
      .prepare<[string, string], { n: number }>(
        "SELECT COUNT(*) AS n FROM operations WHERE project = ? AND content_type = ? AND mode = 'active'",
      )
      .get(project, viewKind)?.n ?? 0;
  const turns =
    db
      .prepare<[string, string], { n: number }>(
        `SELECT COUNT(DISTINCT COALESCE(stash_key, 'id' || id)) AS n FROM retrievals WHERE project = ? AND view_kind = ?`,
      )
      .get(project, viewKind)?.n ?? 0;
  return { views, turns };
}

/** Whether these counts switch a kind to lossless (the one rule, shared by the recorder and doctor). */
export function switchesToLossless(views: number, turns: number): boolean {
  return turns >= LOSSLESS_SWITCH.minTurns && turns > views * LOSSLESS_SWITCH.share;
}

function updateSwitch(db: SqlDatabase, project: string, viewKind: string, now: number): void {
  const { views, turns } = kindCounts(db, project, viewKind);
  if (!switchesToLossless(views, turns)) return;
  db.prepare(
    `INSERT INTO lossless_kinds (project, view_kind, views, retrievals, since) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (project, view_kind) DO UPDATE SET views = excluded.views, retrievals = excluded.retrievals`,
  ).run(project, viewKind, views, turns, now);
}

export function losslessKinds(db: SqlDatabase, project: string): ReadonlySet<string> {
  const rows = db.prepare<[string], { view_kind: string }>('SELECT view_kind FROM lossless_kinds WHERE project = ?').all(project);
  return new Set(rows.map((row) => row.view_kind));
}

const SwitchRow = z.object({ project: z.string(), view_kind: z.string(), views: z.number(), retrievals: z.number(), since: z.number() });
export type LosslessSwitch = z.infer<typeof SwitchRow>;

/** Every switch, for `syt doctor` and `tokenless stats`. */
export function losslessSwitches(db: SqlDatabase): LosslessSwitch[] {
  return z.array(SwitchRow).parse(db.prepare('SELECT project, view_kind, views, retrievals, since FROM lossless_kinds ORDER BY project, view_kind').all());
}

export interface ViewOfKey {
  readonly viewKind: string | null;
  readonly project: string | null;
  readonly beforeTokens: number;
  readonly afterTokens: number;
}

/** The latest view of this session that stashed the key. */
export function viewOfKey(db: SqlDatabase, sessionId: string, key: string): ViewOfKey | null {
  const row = db
    .prepare<[string, string], { content_type: string | null; project: string | null; before_tokens: number; after_tokens: number }>(
      `SELECT content_type, project, before_tokens, after_tokens FROM operations
       WHERE session_id = ? AND instr(stash_keys, ?) > 0 ORDER BY id DESC LIMIT 1`,
    )
    .get(sessionId, `"${key}"`);
  return row === undefined ? null : { viewKind: row.content_type, project: row.project, beforeTokens: row.before_tokens, afterTokens: row.after_tokens };
}

const KindRow = z.object({ view_kind: z.string(), views: z.number(), lossy: z.number(), saved: z.number() });
const TurnRow = z.object({
  view_kind: z.string(),
  retrievals: z.number(),
  reruns: z.number(),
  retrieved_views: z.number(),
  whole: z.number(),
  targeted: z.number(),
  printed_tokens: z.number(),
});

export interface KindRate {
  readonly viewKind: string;
  readonly views: number;
  readonly lossyViews: number;
  readonly retrievals: number;
  readonly reruns: number;
  readonly whole: number;
  readonly targeted: number;
  /** Views that cost at least one turn (retrieved or re-run), over all views of the kind. */
  readonly rate: number;
  readonly printedTokens: number;
}

/** Per view kind, since `since`: views shown, retrievals and re-runs, and the share of views that cost a turn. */
export function kindRates(db: SqlDatabase, since = 0): KindRate[] {
  const kinds = z.array(KindRow).parse(
    db
      .prepare(
        `SELECT COALESCE(content_type, '(none)') AS view_kind, COUNT(*) AS views, SUM(recoverability != 'lossless') AS lossy,
                SUM(before_tokens - after_tokens) AS saved
         FROM operations WHERE mode = 'active' AND ts >= ? GROUP BY 1`,
      )
      .all(since),
  );
  const turns = new Map(
    z
      .array(TurnRow)
      .parse(
        db
          .prepare(
            `SELECT COALESCE(view_kind, '(none)') AS view_kind, SUM(kind = 'retrieve') AS retrievals, SUM(kind = 'rerun') AS reruns,
                    COUNT(DISTINCT COALESCE(stash_key, 'id' || id)) AS retrieved_views, SUM(scope = 'whole') AS whole,
                    SUM(scope = 'targeted') AS targeted, SUM(printed_tokens) AS printed_tokens
             FROM retrievals WHERE ts >= ? GROUP BY 1`,
          )
          .all(since),
      )
      .map((row) => [row.view_kind, row]),
  );
  const names = new Set([...kinds.map((k) => k.view_kind), ...turns.keys()]);
  return [...names]
    .map((viewKind) => {
      const k = kinds.find((row) => row.view_kind === viewKind);
      const t = turns.get(viewKind);
      const views = k?.views ?? 0;
      const costed = t?.retrieved_views ?? 0;
      return {
        viewKind,
        views,
        lossyViews: k?.lossy ?? 0,
        retrievals: t?.retrievals ?? 0,
        reruns: t?.reruns ?? 0,
        whole: t?.whole ?? 0,
        targeted: t?.targeted ?? 0,
        rate: views === 0 ? (costed > 0 ? 1 : 0) : Math.min(1, costed / views),
        printedTokens: t?.printed_tokens ?? 0,
      };
    })
    .sort((a, b) => b.rate - a.rate || b.views - a.views || (a.viewKind < b.viewKind ? -1 : 1));
}

export interface TurnTotals {
  readonly retrievals: number;
  readonly reruns: number;
  readonly printedTokens: number;
}

export function turnTotals(db: SqlDatabase, since = 0): TurnTotals {
  const row = db
    .prepare<[number], { retrievals: number | null; reruns: number | null; printed: number | null }>(
      `SELECT SUM(kind = 'retrieve') AS retrievals, SUM(kind = 'rerun') AS reruns, SUM(printed_tokens) AS printed FROM retrievals WHERE ts >= ?`,
    )
    .get(since);
  return { retrievals: row?.retrievals ?? 0, reruns: row?.reruns ?? 0, printedTokens: row?.printed ?? 0 };
}

export interface TurnsReport {
  readonly byViewKind: KindRate[];
  readonly totals: TurnTotals;
  readonly switches: LosslessSwitch[];
}

export function turnsReport(db: SqlDatabase, since = 0): TurnsReport {
  return { byViewKind: kindRates(db, since), totals: turnTotals(db, since), switches: losslessSwitches(db) };
}

export function emptyTurnsReport(): TurnsReport {
  return { byViewKind: [], totals: { retrievals: 0, reruns: 0, printedTokens: 0 }, switches: [] };
}

/** `syt doctor`'s line for a project: which view kinds get lossless views only there, and why; null when none. */
export function describeSwitches(switches: readonly LosslessSwitch[], project: string): string | null {
  const here = switches.filter((s) => s.project === project);
  if (here.length === 0) return null;
  const kinds = here.map((s) => `${s.view_kind} (${s.retrievals} of ${s.views} views retrieved or re-run)`).join(', ');
  return `lossless views only in ${project} for ${kinds}: its views were retrieved more than 1 time in 5, so shortening them cost the agent turns; \`tokenless stats summary\` shows the rates`;
}
