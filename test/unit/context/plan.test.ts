import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BREAKPOINT_PRIORITY, MAX_BREAKPOINTS, MID_ANCHOR_STRIDE, minCacheableTokens, planAnthropic } from '../../../src/context/engines/anthropic.ts';
import { CAPABILITIES, ENGINES, degradations } from '../../../src/context/engines/capabilities.ts';
import { KEY_RPM_SOFT_CAP, shardedKey } from '../../../src/context/engines/routing.ts';
import { normaliseUsage } from '../../../src/context/engines/usage.ts';
import { AnthropicRequestBody, irFromAnthropic } from '../../../src/context/from-anthropic.ts';
import type { Band } from '../../../src/context/ir.ts';
import type { Slot } from '../../../src/context/layout.ts';
import { emitRequest, mark } from '../../../src/context/plan.ts';
import { refresh } from '../../../src/context/refresh.ts';
import { FIXTURES_DIR } from '../../helpers/fixtures.ts';

const captured = AnthropicRequestBody.parse(
  (JSON.parse(readFileSync(join(FIXTURES_DIR, 'claude-code-requests', 'first-request-2.1.332-opus-5-5.json'), 'utf8')) as { body: unknown }).body,
);

const slotArb = fc.record({
  segment: fc.constantFrom<Slot['segment']>('tools', 'system', 'refpool', 'messages'),
  band: fc.constantFrom<Band>('PIN', 'FOLD', 'DROP'),
  tokens: fc.integer({ min: 0, max: 3000 }),
  markable: fc.boolean(),
  messageStep: fc.boolean(),
});

/** Random layouts in wire order (tools, system PIN, ref-pool, messages) with any token sizes. */
const layoutArb = fc.array(slotArb, { maxLength: 120 }).map((raw) => {
  const order = { tools: 0, system: 1, refpool: 2, messages: 3 } as const;
  let message = 0;
  return [...raw]
    .sort((a, b) => order[a.segment] - order[b.segment])
    .map((slot, index): Slot => {
      if (slot.segment === 'messages' && slot.messageStep) message += 1;
      return { key: `k${index}`, segment: slot.segment, band: slot.segment === 'system' ? 'PIN' : slot.band, message: slot.segment === 'messages' ? message : -1, tokens: slot.tokens, markable: slot.markable };
    });
});

describe('planAnthropic', () => {
  it('never emits more than 4 breakpoints and always keeps the highest-priority eligible ones', () => {
    fc.assert(
      fc.property(layoutArb, fc.constantFrom('claude-opus-4-5', 'claude-sonnet-4-5', 'claude-opus-5-5', 'claude-3-5-haiku-latest'), (slots, model) => {
        const plan = planAnthropic(slots, model);
        expect(plan.breakpoints.length).toBeLessThanOrEqual(MAX_BREAKPOINTS);
        expect(new Set(plan.breakpoints.map((bp) => bp.key)).size).toBe(plan.breakpoints.length);
        const worstKept = Math.max(-1, ...plan.breakpoints.map((bp) => bp.priority));
        for (const dropped of plan.dropped) {
          if (dropped.reason === 'over_limit') expect(dropped.priority).toBeGreaterThanOrEqual(worstKept);
          if (dropped.reason === 'below_minimum') expect(dropped.prefixTokens).toBeLessThan(plan.minCacheableTokens);
        }
        if (plan.breakpoints.length < MAX_BREAKPOINTS) expect(plan.dropped.filter((d) => d.reason === 'over_limit')).toEqual([]);
        for (const bp of plan.breakpoints) expect(bp.prefixTokens).toBeGreaterThanOrEqual(plan.minCacheableTokens);
      }),
      { numRuns: 500 },
    );
  });

  it('places mid anchors every 19 message blocks, nearest the newest first', () => {
    const slots: Slot[] = Array.from({ length: 80 }, (_, index) => ({ key: `m${index}`, segment: 'messages', band: 'FOLD', message: Math.floor(index / 2), tokens: 100, markable: true }));
    const plan = planAnthropic(slots, 'claude-sonnet-4-5');
    expect(plan.breakpoints.map((bp) => [bp.kind, bp.key])).toEqual([
      ['newest', 'm79'],
      ['mid', `m${4 * MID_ANCHOR_STRIDE - 1}`],
      ['mid', `m${3 * MID_ANCHOR_STRIDE - 1}`],
      ['mid', `m${2 * MID_ANCHOR_STRIDE - 1}`],
    ]);
    expect(plan.dropped.map((d) => [d.kind, d.reason])).toEqual([['mid', 'over_limit']]);
  });

  it('never puts a breakpoint on a DROP block', () => {
    const ir = irFromAnthropic(captured);
    const plan = mark(ir, 'anthropic', { model: captured.model, sessionKey: 's' });
    expect(plan.anthropic?.breakpoints.map((bp) => bp.kind)).toEqual(['newest', 'system_end', 'tools_end']);
    // Claude Code's last message is a role:"system" environment note: DROP, so the newest breakpoint sits before it.
    expect(plan.anthropic?.breakpoints[0]?.key).toBe('msg:m0.2');
  });

  it('reads the dated minimum-length table by longest prefix', () => {
    expect(minCacheableTokens('claude-opus-4-5-20251101')).toEqual({ tokens: 4096, known: true });
    expect(minCacheableTokens('claude-opus-4-1')).toEqual({ tokens: 1024, known: true });
    expect(minCacheableTokens('claude-opus-5-5')).toEqual({ tokens: 512, known: false });
    expect(BREAKPOINT_PRIORITY.newest).toBeLessThan(BREAKPOINT_PRIORITY.system_end);
  });
});

describe('mark and emit per engine', () => {
  const ir = irFromAnthropic(captured);

  it.each(ENGINES)('%s: deterministic wire, degradations reported', (engine) => {
    const plan = mark(ir, engine, { model: 'm', sessionKey: 'session-1' });
    const a = JSON.stringify(emitRequest(ir, plan, { maxTokens: 1000 }));
    expect(JSON.stringify(emitRequest(ir, mark(ir, engine, { model: 'm', sessionKey: 'session-1' }), { maxTokens: 1000 }))).toBe(a);
    expect(plan.degradations).toEqual(degradations(engine, { breakpoints: true, prewarm: false, routingKey: true, cacheProbe: false, forkAndReplace: false }));
    if (CAPABILITIES[engine].breakpoints === 0) expect(plan.degradations.map((d) => d.feature)).toContain('breakpoints');
    expect((a.match(/cache_control/g) ?? []).length).toBeLessThanOrEqual(engine === 'anthropic' ? 4 : 0);
  });

  it('routes by the engine\'s own key field', () => {
    const wire = (engine: (typeof ENGINES)[number]) => emitRequest(ir, mark(ir, engine, { model: 'm', sessionKey: 's' }), { maxTokens: 1 });
    expect(wire('openai').body['prompt_cache_key']).toMatch(/^syt-[0-9a-f]{16}$/);
    expect(wire('vllm').body['cache_salt']).toMatch(/^syt-[0-9a-f]{16}$/);
    expect(wire('sglang').headers['x-smg-routing-key']).toMatch(/^syt-/);
    expect(wire('deepseek').body).not.toHaveProperty('prompt_cache_key');
  });

  it('shards an OpenAI key when the rate would exceed the soft cap, one session always on one shard', () => {
    expect(shardedKey('p', 's', KEY_RPM_SOFT_CAP).shards).toBe(1);
    const busy = shardedKey('p', 's', 50);
    expect(busy.shards).toBe(5);
    expect(busy.key).toBe(shardedKey('p', 's', 50).key);
    expect(new Set(Array.from({ length: 40 }, (_, i) => shardedKey('p', `s${i}`, 50).shard)).size).toBeGreaterThan(1);
  });

  it('refresh() only prewarms engines that can, near expiry, within the hourly cap', () => {
    const plan = mark(ir, 'anthropic', { model: 'm', sessionKey: 's' });
    const wire = emitRequest(ir, plan, { maxTokens: 1000 });
    const now = 1_000_000;
    expect(refresh(plan, wire, { lastCacheUseAt: now - 60_000, refreshes: [] }, now).send).toBe(false);
    const due = refresh(plan, wire, { lastCacheUseAt: now - 280_000, refreshes: [] }, now);
    expect(due.send && due.request.body['max_tokens']).toBe(1);
    expect(refresh(plan, wire, { lastCacheUseAt: now - 280_000, refreshes: Array.from({ length: 11 }, () => now - 1000) }, now).send).toBe(false);
    expect(refresh(mark(ir, 'openai', { model: 'm', sessionKey: 's' }), wire, { lastCacheUseAt: now - 280_000, refreshes: [] }, now).send).toBe(false);
  });
});

describe('normaliseUsage', () => {
  it.each([
    ['anthropic', { input_tokens: 5, cache_creation_input_tokens: 100, cache_read_input_tokens: 900, output_tokens: 7 }, { cache_read: 900, cache_write: 100, raw_input: 5, output: 7 }],
    ['openai', { prompt_tokens: 2000, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 1536 } }, { cache_read: 1536, cache_write: 0, raw_input: 464, output: 3 }],
    ['deepseek', { prompt_tokens: 10, prompt_cache_hit_tokens: 8, prompt_cache_miss_tokens: 2, completion_tokens: 1 }, { cache_read: 8, cache_write: 0, raw_input: 2, output: 1 }],
    ['gemini', { promptTokenCount: 100, cachedContentTokenCount: 60, candidatesTokenCount: 4 }, { cache_read: 60, cache_write: 0, raw_input: 40, output: 4 }],
    ['vllm', {}, { cache_read: 0, cache_write: 0, raw_input: 0, output: 0 }],
  ] as const)('%s', (engine, raw, expected) => {
    expect(normaliseUsage(engine, raw)).toEqual(expected);
  });
});
