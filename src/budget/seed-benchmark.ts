/**
 * The save-your-tokens seed's benchmark, replicated step for step (pure) so its published figure can be reproduced
 * and its baseline mistake shown. Quirks kept on purpose, because they decide the figure: tokens are characters / 4;
 * the state is sampled when the first message of the next turn has already been added; the configured staleness
 * (8 turns) is ignored because the seed's drop action hard-codes 10; the interval fires on the 0-based turn index;
 * and the baseline is looked up by turn number in a per-message list (`cumulative[turn - 1]`), which compares the
 * managed context at turn 50 with the baseline after message 50 of 72.
 */
export interface SeedMessage {
  readonly turn: number;
  readonly layer: 'persistent' | 'session' | 'ephemeral';
  readonly content: string;
}

export interface SeedBenchmark {
  readonly turns: readonly { turn: number; managed: number; compaction: boolean; seedBaseline: number; alignedBaseline: number }[];
  readonly managedTotal: number;
  /** The seed's baseline (misaligned) and its savings share: 701,387 and 15.5% on the seed's data. */
  readonly seedBaselineTotal: number;
  readonly seedSavedShare: number;
  /** The baseline sampled at the same message as the managed figure. */
  readonly alignedBaselineTotal: number;
  readonly alignedSavedShare: number;
  readonly compactionEvents: number;
}

const CONTEXT_WINDOW = 200_000;
const AVAILABLE = CONTEXT_WINDOW - Math.floor(CONTEXT_WINDOW * 0.2);
const DROP_MAX_AGE = 10;
const INTERVAL = 10;

export const seedTokens = (text: string): number => Math.max(1, Math.floor(text.length / 4));

export function runSeedBenchmark(messages: readonly SeedMessage[], count: (text: string) => number = seedTokens): SeedBenchmark {
  const cumulative: number[] = [];
  let running = 0;
  for (const m of messages) cumulative.push((running += count(m.content)));
  const blocks = new Map<number, { layer: SeedMessage['layer']; tokens: number; lastRef: number }>();
  const used = (): number => [...blocks.values()].reduce((sum, b) => sum + b.tokens, 0);
  const turns: SeedBenchmark['turns'][number][] = [];
  let history = 0;
  let engineTurn = 0;
  let currentTurn = 0;
  let referenced: number[] = [];
  messages.forEach((m, index) => {
    blocks.set(index, { layer: m.layer, tokens: count(m.content), lastRef: history });
    referenced.push(index);
    if (m.turn <= currentTurn) return;
    engineTurn += 1;
    const turnIndex = history;
    for (const id of referenced) {
      const b = blocks.get(id);
      if (b !== undefined) blocks.set(id, { ...b, lastRef: turnIndex });
    }
    referenced = [];
    const drop = used() / AVAILABLE > 0.8 || turnIndex % INTERVAL === 0;
    history += 1;
    let compaction = false;
    if (drop) {
      for (const [id, b] of blocks) {
        if (b.layer === 'ephemeral' && engineTurn - b.lastRef > DROP_MAX_AGE) {
          blocks.delete(id);
          compaction = true;
        }
      }
    }
    turns.push({ turn: m.turn, managed: used(), compaction, seedBaseline: cumulative[Math.min(m.turn - 1, cumulative.length - 1)] ?? 0, alignedBaseline: cumulative[index] ?? 0 });
    currentTurn = m.turn;
  });
  const managedTotal = turns.reduce((sum, t) => sum + t.managed, 0);
  const seedBaselineTotal = turns.reduce((sum, t) => sum + t.seedBaseline, 0);
  const alignedBaselineTotal = turns.reduce((sum, t) => sum + t.alignedBaseline, 0);
  return {
    turns,
    managedTotal,
    seedBaselineTotal,
    seedSavedShare: 1 - managedTotal / seedBaselineTotal,
    alignedBaselineTotal,
    alignedSavedShare: 1 - managedTotal / alignedBaselineTotal,
    compactionEvents: turns.filter((t) => t.compaction).length,
  };
}
