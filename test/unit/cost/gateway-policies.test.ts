/** The gateway's policies priced by the cache simulator: stale-result folds and tool tiers, on scripted transcripts. */
import { beforeAll, describe, expect, it } from 'vitest';
import { foldMarker } from '../../../src/gateway/fold.ts';
import { stubWithRetrieval, toolDefinitionText } from '../../../src/gateway/tool-tiers.ts';
import { priceFor } from '../../../src/cost/pricing.ts';
import { insertPause, readSimSession } from '../../../src/cost/requests.ts';
import { reportSession } from '../../../src/cost/simulate-report.ts';
import { stashKeyFor } from '../../../src/store/marker.ts';
import { tokenCounter } from '../../../src/tokens/count.ts';
import { scriptedTranscript, type ScriptedTurn as Turn } from '../../helpers/scripted-transcript.ts';

let countTokens: (text: string) => number = () => 0;
beforeAll(async () => {
  countTokens = await tokenCounter();
});

const BIG = Array.from({ length: 300 }, (_, i) => `drwxr-xr-x  2 user user 4096 Jan  1 file-${i}.txt`).join('\n');

/** Eight quick turns (the big result at the second), a pause of `pause` seconds, then two more. */
function session(pause: number, tool?: (i: number) => string | undefined) {
  const turns: Turn[] = [{ seconds: 0, read: 0, write: 20_000 }, { seconds: 10, read: 20_000, write: 5_000 }];
  for (let i = 2; i < 8; i += 1) turns.push({ seconds: 10 * i, read: 25_000 + (i - 2) * 100, write: 100 });
  // As recorded: after a pause over the 5-minute TTL the whole prompt is written again, else it is read.
  const cold = pause > 300;
  turns.push({ seconds: 70 + pause, read: cold ? 0 : 25_600, write: cold ? 25_700 : 100 }, { seconds: 80 + pause, read: 25_700, write: 100 });
  return scriptedTranscript(turns.map((t, i) => ({ ...t, ...(i === 1 ? { result: BIG } : {}), ...(tool?.(i) === undefined ? {} : { tool: tool(i) }) })));
}

const price = priceFor('claude-sonnet-4-5');

describe('fold_stale priced', () => {
  it('after a pause that expired the cache: the fold saves the rewrite of the result and every later read of it', () => {
    const report = reportSession(readSimSession(session(600), 't.jsonl'), { countTokens });
    expect(report.validation_error).toBe(0);
    expect(report.fold).toEqual({ cold_requests: 1, folds: 1, retrieved: 0 });
    if (price === null) throw new Error('no price');
    const saved = countTokens(BIG) - countTokens(foldMarker(BIG, stashKeyFor(BIG)));
    // Not written at the cold request (1.25x), not read by the one after it (0.1x).
    expect(report.savings.fold_stale?.dollars).toBeCloseTo((saved * (price.cacheWrite5m + price.cacheRead)) / 1e6, 8);
    // Per session the TTL policy that saves most goes on too: here the 1-hour TTL, under which the cache outlives
    // the pause, so the gateway would not fold (it never folds on a warm cache).
    expect(report.hindsight_switched_on).toEqual(['ttl_1h_all']);
  });

  it('never on a warm cache: a pause under the TTL folds nothing', () => {
    const report = reportSession(readSimSession(session(200), 't.jsonl'), { countTokens });
    expect(report.fold).toEqual({ cold_requests: 0, folds: 0, retrieved: 0 });
    expect(report.savings.fold_stale?.dollars).toBe(0);
    expect(report.switched_on).not.toContain('fold_stale');
  });

  it('--insert-pause prices the paused session but validates the recorded one', () => {
    const text = session(200);
    expect(reportSession(readSimSession(text, 't.jsonl'), { countTokens }).excluded).toBeNull();
    const paused = reportSession(readSimSession(text, 't.jsonl'), { countTokens, insertPauseMs: 30 * 60_000 });
    const recorded = reportSession(readSimSession(text, 't.jsonl'), { countTokens });
    expect(paused.validation_error).toBe(recorded.validation_error);
    expect(paused.pauses_over_5m).toBe(recorded.pauses_over_5m + 1);
    expect(paused.reproduced_cost).toBeGreaterThan(recorded.reproduced_cost);
    expect(paused.fold.folds).toBe(1);
    const shifted = insertPause(readSimSession(text, 't.jsonl'), 60_000);
    expect(shifted.requests.at(-1)?.sentAt).toBe((readSimSession(text, 't.jsonl').requests.at(-1)?.sentAt ?? 0) + 60_000);
  });
});

describe('tool_tiers priced', () => {
  const bash = { name: 'Bash', description: 'Runs a command.', input_schema: { type: 'object', properties: { command: { type: 'string' } } } };
  const fetcher = { name: 'WebFetch', description: `Fetches a URL.\n${'Details. '.repeat(200)}`, input_schema: { type: 'object', properties: { url: { type: 'string', description: 'The URL.' } } } };
  const tools = [bash, fetcher];

  it('stubs the unused non-core tool: its tokens come off the stable prefix of every request', () => {
    const report = reportSession(readSimSession(session(600), 't.jsonl'), { countTokens, tools });
    expect(report.tool_tiers).toEqual({ stubbed: ['WebFetch'], called_while_stubbed: [], promotions: 0 });
    if (price === null) throw new Error('no price');
    const cut = countTokens(JSON.stringify(fetcher)) - countTokens(JSON.stringify(stubWithRetrieval(fetcher, stashKeyFor(toolDefinitionText(fetcher)))));
    // Written by the first request and by the one after the pause, read by the other eight.
    expect(report.savings.tool_tiers?.dollars).toBeCloseTo((cut * (2 * price.cacheWrite5m + 8 * price.cacheRead)) / 1e6, 8);
  });

  it('a stubbed tool the agent calls costs its definition (retrieved) and is promoted at the next cold cache', () => {
    const report = reportSession(readSimSession(session(600, (i) => (i === 3 ? 'WebFetch' : undefined)), 't.jsonl'), { countTokens, tools });
    expect(report.tool_tiers).toEqual({ stubbed: ['WebFetch'], called_while_stubbed: ['WebFetch'], promotions: 1 });
    const unused = reportSession(readSimSession(session(600), 't.jsonl'), { countTokens, tools });
    expect(report.savings.tool_tiers?.dollars).toBeLessThan(unused.savings.tool_tiers?.dollars ?? 0);
  });

  it('is not priced without a tool array (transcripts hold none)', () => {
    const report = reportSession(readSimSession(session(600), 't.jsonl'), { countTokens });
    expect(report.savings.tool_tiers).toBeNull();
    expect(report.tool_tiers).toBeNull();
  });
});
