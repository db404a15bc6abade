/**
 * Dated price table, US dollars per million tokens, standard (non-batch) tier, prompts under any long-context
 * threshold. Every entry says when and where its prices were taken: prices change, and a figure without its date
 * cannot be checked. Update by adding a row with a new date, not by editing an old one silently.
 */
export type Provider = 'anthropic' | 'openai' | 'gemini' | 'deepseek';

export interface ModelPrice {
  readonly provider: Provider;
  /** Model id, or a family prefix when `family` is true. */
  readonly model: string;
  /** Matches any model id starting with `model` (used when the exact id is not listed). */
  readonly family?: boolean;
  /** Uncached input (for DeepSeek: a cache miss). */
  readonly input: number;
  /** Reading cached input (Anthropic cache read, OpenAI cached input, Gemini cached input, DeepSeek cache hit). */
  readonly cacheRead: number;
  /** Anthropic 5-minute cache write (1.25x input). Providers without write surcharges: the input price. */
  readonly cacheWrite5m: number;
  /** Anthropic 1-hour cache write (2x input). */
  readonly cacheWrite1h: number;
  readonly output: number;
  /** Gemini explicit caching: storage per million cached tokens per hour. */
  readonly storagePerHour?: number;
  /** The day the price was read (YYYY-MM-DD). */
  readonly taken: string;
  readonly source: string;
}

const ANTHROPIC = 'https://www.anthropic.com/pricing#api (prompt caching table)';
const OPENAI = 'https://openai.com/api/pricing/';
const GEMINI = 'https://ai.google.dev/gemini-api/docs/pricing';
const DEEPSEEK = 'https://api-docs.deepseek.com/quick_start/pricing';

/** Anthropic rows: write 5m = 1.25x, write 1h = 2x, read = 0.1x the input price. */
function anthropic(model: string, input: number, output: number, taken: string, family = false, source = ANTHROPIC): ModelPrice {
  return { provider: 'anthropic', model, family, input, cacheRead: cents(input * 0.1), cacheWrite5m: cents(input * 1.25), cacheWrite1h: input * 2, output, taken, source };
}

/** Rounds away float noise (3 x 0.1 = 0.30000000000000004) so printed prices read as published. */
function cents(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

function flat(provider: Provider, model: string, input: number, cacheRead: number, output: number, taken: string, source: string): ModelPrice {
  return { provider, model, input, cacheRead, cacheWrite5m: input, cacheWrite1h: input, output, taken, source };
}

export const PRICES: readonly ModelPrice[] = [
  anthropic('claude-opus-4-5', 5, 25, '2025-11-24'),
  anthropic('claude-opus-4-1', 15, 75, '2025-08-05'),
  anthropic('claude-opus-4-20250514', 15, 75, '2025-05-22'),
  anthropic('claude-sonnet-4-5', 3, 15, '2025-09-29'),
  anthropic('claude-sonnet-4-20250514', 3, 15, '2025-05-22'),
  anthropic('claude-haiku-4-5', 1, 5, '2025-10-15'),
  anthropic('claude-3-5-haiku', 0.8, 4, '2024-11-04'),
  // Derived, not published: Claude Code 2.1.332 priced 68,036 input + 146 output tokens at $0.275064 in a captured
  // transcript's cost-state line (test/fixtures/transcripts/claude-code/transcript-2.1.332-demo.jsonl): $4 / $20.
  anthropic('claude-opus-5-5', 4, 20, '2026-11-30', false, 'Claude Code 2.1.332 cost-state (derived)'),
  // Family fallbacks for ids not listed above: the latest published price of the family.
  anthropic('claude-opus', 5, 25, '2025-11-24', true),
  anthropic('claude-sonnet', 3, 15, '2025-09-29', true),
  anthropic('claude-haiku', 1, 5, '2025-10-15', true),
  flat('openai', 'gpt-5-mini', 0.25, 0.025, 2, '2025-08-07', OPENAI),
  flat('openai', 'gpt-5', 1.25, 0.125, 10, '2025-08-07', OPENAI),
  flat('openai', 'gpt-4.1-mini', 0.4, 0.1, 1.6, '2025-04-14', OPENAI),
  flat('openai', 'gpt-4.1', 2, 0.5, 8, '2025-04-14', OPENAI),
  flat('openai', 'gpt-4o-mini', 0.15, 0.075, 0.6, '2024-10-01', OPENAI),
  flat('openai', 'gpt-4o', 2.5, 1.25, 10, '2024-10-01', OPENAI),
  flat('openai', 'o3', 2, 0.5, 8, '2025-06-10', OPENAI),
  { ...flat('gemini', 'gemini-2.5-pro', 1.25, 0.125, 10, '2025-11-15', GEMINI), storagePerHour: 4.5 },
  { ...flat('gemini', 'gemini-2.5-flash', 0.3, 0.03, 2.5, '2025-11-15', GEMINI), storagePerHour: 1 },
  flat('deepseek', 'deepseek-chat', 0.28, 0.028, 0.42, '2025-09-29', DEEPSEEK),
  flat('deepseek', 'deepseek-reasoner', 0.28, 0.028, 0.42, '2025-09-29', DEEPSEEK),
];

/** Used when nothing says which model a saving belongs to: Claude Code's most common default. */
export const DEFAULT_MODEL = 'claude-sonnet-4-5';

/** The exact row for a model id, else the longest listed prefix (a dated id such as `claude-sonnet-4-5-20250929`), else null. */
export function priceFor(model: string): ModelPrice | null {
  const exact = PRICES.find((p) => p.model === model && p.family !== true);
  if (exact !== undefined) return exact;
  let best: ModelPrice | null = null;
  for (const p of PRICES) {
    if (model.startsWith(p.model) && (best === null || p.model.length > best.model.length)) best = p;
  }
  return best;
}
