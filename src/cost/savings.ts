/**
 * Dollars for the tokens our operations removed. Each record is priced with its session's model and the number of
 * requests the session made after it (each would have re-read the removed tokens from the cache), both taken from the
 * Claude Code transcripts when they cover the session; otherwise from the caller's assumptions, which the report
 * states. Ignores compactions, which end the re-reads early: with transcripts this is an upper bound.
 */
import type { RequestUsage } from '../transcript/claude-code.ts';
import { SAVED_TOKEN_FORMULA, savedTokensValue } from './engine.ts';
import { DEFAULT_MODEL, priceFor } from './pricing.ts';

export interface SavingRecord {
  readonly ts: number;
  readonly session_id: string;
  readonly tool: string;
  readonly saved_tokens: number;
}

export interface PricedSavings {
  readonly savedTokens: number;
  readonly dollars: number;
  /** Records priced from transcript data (their session's model and later requests). */
  readonly fromTranscripts: number;
  /** Records priced with the assumptions (`model`, `rereads`). */
  readonly assumed: number;
  readonly assumptions: { readonly model: string; readonly rereads: number };
  readonly bySession: { key: string; savedTokens: number; dollars: number; model: string; laterRequests: number }[];
  readonly byTool: { key: string; savedTokens: number; dollars: number }[];
  readonly byDay: { key: string; savedTokens: number; dollars: number }[];
  readonly formula: string;
}

interface SessionUsage {
  readonly model: string;
  /** Request times in epoch ms, ascending. */
  readonly times: number[];
}

export function priceSavings(
  records: readonly SavingRecord[],
  requests: readonly RequestUsage[],
  assumptions: { model?: string; rereads?: number } = {},
): PricedSavings {
  const model = assumptions.model ?? DEFAULT_MODEL;
  const rereads = assumptions.rereads ?? 0;
  const sessions = indexSessions(requests);
  const bySession = new Map<string, { savedTokens: number; dollars: number; model: string; laterRequests: number }>();
  const byTool = new Map<string, { savedTokens: number; dollars: number }>();
  const byDay = new Map<string, { savedTokens: number; dollars: number }>();
  let savedTokens = 0;
  let dollars = 0;
  let fromTranscripts = 0;
  for (const record of records) {
    const usage = sessions.get(record.session_id);
    const recordModel = usage?.model ?? model;
    const later = usage === undefined ? rereads : usage.times.length - upperBound(usage.times, record.ts);
    const price = priceFor(recordModel) ?? priceFor(DEFAULT_MODEL);
    const value = price === null ? 0 : savedTokensValue(record.saved_tokens, later, price);
    if (usage !== undefined) fromTranscripts += 1;
    savedTokens += record.saved_tokens;
    dollars += value;
    const s = bySession.get(record.session_id) ?? { savedTokens: 0, dollars: 0, model: recordModel, laterRequests: 0 };
    bySession.set(record.session_id, { ...s, savedTokens: s.savedTokens + record.saved_tokens, dollars: s.dollars + value, laterRequests: s.laterRequests + later });
    bump(byTool, record.tool, record.saved_tokens, value);
    bump(byDay, new Date(record.ts).toISOString().slice(0, 10), record.saved_tokens, value);
  }
  return {
    savedTokens,
    dollars,
    fromTranscripts,
    assumed: records.length - fromTranscripts,
    assumptions: { model, rereads },
    bySession: sorted(bySession),
    byTool: sorted(byTool),
    byDay: sorted(byDay).sort((a, b) => (a.key < b.key ? -1 : 1)),
    formula: SAVED_TOKEN_FORMULA,
  };
}

/** Per session: the model with most requests, and the request times. */
function indexSessions(requests: readonly RequestUsage[]): Map<string, SessionUsage> {
  const counts = new Map<string, Map<string, number>>();
  const times = new Map<string, number[]>();
  for (const r of requests) {
    const perModel = counts.get(r.session) ?? new Map<string, number>();
    perModel.set(r.model, (perModel.get(r.model) ?? 0) + 1);
    counts.set(r.session, perModel);
    const t = Date.parse(r.timestamp);
    if (!Number.isFinite(t)) continue;
    const list = times.get(r.session);
    if (list === undefined) times.set(r.session, [t]);
    else list.push(t);
  }
  const index = new Map<string, SessionUsage>();
  for (const [session, perModel] of counts) {
    const model = [...perModel.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? DEFAULT_MODEL;
    index.set(session, { model, times: (times.get(session) ?? []).sort((a, b) => a - b) });
  }
  return index;
}

/** Index of the first time strictly greater than `t`. */
function upperBound(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((times[mid] ?? 0) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function bump(map: Map<string, { savedTokens: number; dollars: number }>, key: string, tokens: number, dollars: number): void {
  const entry = map.get(key) ?? { savedTokens: 0, dollars: 0 };
  map.set(key, { savedTokens: entry.savedTokens + tokens, dollars: entry.dollars + dollars });
}

function sorted<T extends { savedTokens: number }>(map: Map<string, T>): (T & { key: string })[] {
  return [...map.entries()].map(([key, v]) => ({ key, ...v })).sort((a, b) => b.savedTokens - a.savedTokens || (a.key < b.key ? -1 : 1));
}
