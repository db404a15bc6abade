/**
 * Prices the gateway's stale-result folds on a recorded session, with the gateway's own functions (src/gateway/
 * fold.ts): each main-session request that came after its conversation's cache expired (a gap over the TTL in
 * effect since the previous main request) folds what `foldCandidates` picks from the messages it carried; from then
 * on every request whose chain holds a folded result carries the marker instead (o200k tokens of the result minus
 * those of the marker). A fold the agent would have needed (a later assistant line quotes the result) is priced as
 * retrieved: from that line on the result is back in the prompt, beside its marker.
 */
import { foldCandidates, foldMarker, quotes, FOLD_DEFAULTS, type FoldOptions } from '../gateway/fold.ts';
import { stashKeyFor } from '../store/marker.ts';
import { linesOf, type ChainLine, type SimRequest, type SimSession } from './requests.ts';

export interface FoldPricing {
  /** Tokens each request no longer carries, on top of what the hooks took out of the same results. */
  readonly removed: ReadonlyMap<SimRequest, number>;
  /** Tokens a retrieved fold adds back (the result beside its marker, minus what its fold removed). */
  readonly added: ReadonlyMap<SimRequest, number>;
  readonly folds: number;
  /** Folds a later assistant line quoted (priced as retrieved). */
  readonly retrieved: number;
  /** Main-session requests that came after the cache expired. */
  readonly coldRequests: number;
}

interface PricedFold {
  readonly resultUuid: string;
  readonly at: number;
  /** From here on the result is back (retrieved); Infinity when never needed. */
  readonly backAt: number;
  readonly saved: number;
  readonly markerTokens: number;
  readonly hookSaved: number;
}

export interface FoldPriceOptions {
  readonly countTokens: (text: string) => number;
  /** The conversation TTL in effect for a request (ms): as recorded, or as a TTL policy sets it. */
  readonly conversationTtl: (request: SimRequest) => number;
  /** Tokens the hooks took out of each result (by tool_use id): folding such a result removes only the rest. */
  readonly hookSavings?: ReadonlyMap<string, number>;
  readonly fold?: FoldOptions;
}

export function priceFolds(session: SimSession, options: FoldPriceOptions): FoldPricing {
  const resultUuid = new Map(session.calls.map((call) => [call.toolUseId, call.resultUuid]));
  const folds: PricedFold[] = [];
  const folded = new Set<string>();
  let coldRequests = 0;
  let previous: number | null = null;
  const main = session.requests.filter((r) => r.agent === 'main');
  for (const request of main) {
    const gap = previous === null ? null : request.sentAt - previous;
    previous = request.sentAt;
    if (gap === null || gap <= options.conversationTtl(request)) continue;
    coldRequests += 1;
    const lines = linesOf(request);
    for (const candidate of foldCandidates(asMessages(lines), folded, options.fold ?? FOLD_DEFAULTS)) {
      const uuid = resultUuid.get(candidate.toolUseId);
      if (uuid === undefined) continue;
      folded.add(candidate.toolUseId);
      const markerTokens = options.countTokens(foldMarker(candidate.text, stashKeyFor(candidate.text)));
      folds.push({
        resultUuid: uuid,
        at: request.sentAt,
        backAt: quotedAt(main, uuid, request.sentAt, candidate.text),
        saved: options.countTokens(candidate.text) - markerTokens,
        markerTokens,
        hookSaved: options.hookSavings?.get(candidate.toolUseId) ?? 0,
      });
    }
  }
  const removed = new Map<SimRequest, number>();
  const added = new Map<SimRequest, number>();
  for (const request of main) {
    let less = 0;
    let more = 0;
    for (const fold of folds) {
      if (request.sentAt < fold.at || !request.chain.has(fold.resultUuid)) continue;
      // Retrieved: the text is back and the marker stays; the hooks' share is the hooks' either way.
      if (request.sentAt >= fold.backAt) more += fold.markerTokens;
      else less += Math.max(0, fold.saved - fold.hookSaved);
    }
    if (less !== 0) removed.set(request, less);
    if (more !== 0) added.set(request, more);
  }
  return { removed, added, folds: folds.length, retrieved: folds.filter((f) => f.backAt !== Infinity).length, coldRequests };
}

/** The chain's lines as Anthropic messages: consecutive lines of one role are one message, as the client sends them. */
export function asMessages(lines: readonly ChainLine[]): { role: string; content: unknown[] }[] {
  const messages: { role: string; content: unknown[] }[] = [];
  for (const line of lines) {
    if (line.role !== 'user' && line.role !== 'assistant') continue;
    const blocks = typeof line.content === 'string' ? [{ type: 'text', text: line.content }] : Array.isArray(line.content) ? (line.content as unknown[]) : [];
    const last = messages.at(-1);
    if (last !== undefined && last.role === line.role) last.content.push(...blocks);
    else messages.push({ role: line.role, content: [...blocks] });
  }
  return messages;
}

/** When the first assistant line after `after` that quotes the result was sent, in the last request holding it. */
function quotedAt(main: readonly SimRequest[], uuid: string, after: number, text: string): number {
  const holder = [...main].reverse().find((r) => r.chain.has(uuid));
  if (holder === undefined) return Infinity;
  for (const line of linesOf(holder)) {
    if (line.role === 'assistant' && line.time > after && quotes([line.content], text)) return line.time;
  }
  return Infinity;
}
