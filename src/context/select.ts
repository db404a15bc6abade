/**
 * CAL selection: scores chunks against the query with IDF-weighted triggers (a trigger found in many chunks says
 * little; in `idfFloor` or more chunks it says nothing), a small summary-overlap term, negative triggers, and
 * inheritance from earlier turns at a decaying weight. Scores decide only WHICH chunks are used; the order is two
 * zones, mandatory chunks then selected chunks, each by id, so overlapping selections share a byte-identical prefix.
 */
import type { Chunk } from './chunks.ts';

export interface SelectOptions {
  readonly maxChunks: number;
  readonly minScore: number;
  /** Triggers present in this many chunks or more weigh zero; 0 disables the floor. */
  readonly idfFloor: number;
  readonly summaryWeight: number;
  readonly penaltyWeight: number;
  /** Weight of the previous turn's query; each earlier turn is multiplied by it again. */
  readonly inheritance: number;
}

export const SELECT_DEFAULTS: SelectOptions = { maxChunks: 6, minScore: 0.5, idfFloor: 10, summaryWeight: 0.1, penaltyWeight: 1, inheritance: 0.5 };

export interface Scored {
  readonly id: string;
  readonly score: number;
  readonly matched: readonly string[];
}

export interface Assembly {
  readonly zone1: readonly string[];
  readonly zone2: readonly string[];
  readonly scores: readonly Scored[];
  readonly excluded: ReadonlyArray<{ readonly id: string; readonly reason: string }>;
  /** The assembled context: zone 1 then zone 2, each chunk's content (or summary) in order. */
  readonly text: string;
}

const normalise = (text: string): string => ` ${(text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).join(' ')} `;
const has = (haystack: string, phrase: string): boolean => {
  const needle = normalise(phrase);
  return needle.trim() !== '' && haystack.includes(needle);
};

/** Inverse document frequency of each trigger over the chunk set, with the floor applied. */
export function triggerWeights(chunks: readonly Chunk[], idfFloor: number): Map<string, number> {
  const df = new Map<string, number>();
  for (const chunk of chunks) for (const trigger of new Set(chunk.triggers.map((t) => normalise(t)))) df.set(trigger, (df.get(trigger) ?? 0) + 1);
  const weights = new Map<string, number>();
  for (const [trigger, count] of df) weights.set(trigger, idfFloor > 0 && count >= idfFloor ? 0 : Math.log(1 + chunks.length / count));
  return weights;
}

export function score(chunks: readonly Chunk[], query: string, history: readonly string[] = [], options: SelectOptions = SELECT_DEFAULTS): { scores: Scored[]; excluded: Array<{ id: string; reason: string }> } {
  const weights = triggerWeights(chunks, options.idfFloor);
  // Newest earlier turn first: it inherits `inheritance`, the one before it inheritance^2, and so on.
  const turns = [{ text: normalise(query), weight: 1 }, ...[...history].reverse().map((text, index) => ({ text: normalise(text), weight: options.inheritance ** (index + 1) }))];
  const current = turns[0]!.text;
  const scores: Scored[] = [];
  const excluded: Array<{ id: string; reason: string }> = [];
  for (const chunk of chunks) {
    if (chunk.mandatory) continue;
    const negative = chunk.negative_triggers;
    const hard = negative?.hard_exclude.find((word) => has(current, word));
    if (hard !== undefined) {
      excluded.push({ id: chunk.id, reason: `hard_exclude: ${hard}` });
      continue;
    }
    if (negative !== undefined && negative.require_any.length > 0 && !negative.require_any.some((word) => turns.some((turn) => has(turn.text, word)))) {
      excluded.push({ id: chunk.id, reason: 'require_any: none present' });
      continue;
    }
    let total = 0;
    const matched = new Set<string>();
    for (const turn of turns) {
      for (const trigger of chunk.triggers) {
        if (!has(turn.text, trigger)) continue;
        total += turn.weight * (weights.get(normalise(trigger)) ?? 0);
        matched.add(trigger);
      }
      const summaryWords = new Set(normalise(chunk.summary).trim().split(' ').filter((word) => word.length > 3));
      for (const word of summaryWords) if (turn.text.includes(` ${word} `)) total += turn.weight * options.summaryWeight;
    }
    for (const word of negative?.penalty ?? []) if (has(current, word)) total -= options.penaltyWeight;
    scores.push({ id: chunk.id, score: Math.round(total * 1e6) / 1e6, matched: [...matched].sort() });
  }
  return { scores, excluded };
}

/** Selects by score (ties by id) and assembles in the two-zone deterministic order. */
export function assemble(chunks: readonly Chunk[], query: string, history: readonly string[] = [], options: SelectOptions = SELECT_DEFAULTS): Assembly {
  const { scores, excluded } = score(chunks, query, history, options);
  const selected = scores
    .filter((entry) => entry.score >= options.minScore)
    .sort((a, b) => b.score - a.score || compareIds(a.id, b.id))
    .slice(0, options.maxChunks);
  const zone1 = chunks.filter((chunk) => chunk.mandatory).map((chunk) => chunk.id).sort(compareIds);
  const zone2 = selected.map((entry) => entry.id).sort(compareIds);
  return { zone1, zone2, scores: [...scores].sort((a, b) => b.score - a.score || compareIds(a.id, b.id)), excluded, text: render(chunks, [...zone1, ...zone2]) };
}

/** The same selection in relevance order: what CAL measured to break the provider's prefix cache. */
export function assembleByRelevance(chunks: readonly Chunk[], query: string, history: readonly string[] = [], options: SelectOptions = SELECT_DEFAULTS): string {
  const { scores } = score(chunks, query, history, options);
  const selected = scores.filter((entry) => entry.score >= options.minScore).sort((a, b) => b.score - a.score || compareIds(a.id, b.id)).slice(0, options.maxChunks);
  const zone1 = chunks.filter((chunk) => chunk.mandatory).map((chunk) => chunk.id).sort(compareIds);
  return render(chunks, [...zone1, ...selected.map((entry) => entry.id)]);
}

/** Code-unit order: the same on every machine and locale. */
export const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function render(chunks: readonly Chunk[], ids: readonly string[]): string {
  const byId = new Map(chunks.map((chunk) => [chunk.id, chunk]));
  return ids.map((id) => {
    const chunk = byId.get(id);
    return `<chunk id="${id}">\n${chunk?.content !== undefined && chunk.content !== '' ? chunk.content : (chunk?.summary ?? '')}\n</chunk>\n`;
  }).join('');
}
