import { describe, expect, it } from 'vitest';
import { applyFolds, foldCandidates } from '../../../src/gateway/fold.ts';
import { breakpointTtl, canRetrieve, countBreakpoints, sessionKey, stepSession, TTL_5M_MS, type SessionMemory } from '../../../src/gateway/session-policy.ts';
import { parseMarker } from '../../../src/store/marker.ts';

const BIG = Array.from({ length: 400 }, (_, i) => `line ${i} of a long build log that nobody needs again`).join('\n');
const use = (id: string, command = 'make') => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] });
const result = (id: string, content: unknown) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] });

/** A conversation: the task, one big result, then `small` rounds of small results, the last with a breakpoint. */
function conversation(small: number, big: unknown = BIG): unknown[] {
  const messages: unknown[] = [{ role: 'user', content: [{ type: 'text', text: 'build it' }] }, use('t0'), result('t0', big)];
  for (let i = 1; i <= small; i += 1) messages.push(use(`t${i}`, `echo ${i}`), result(`t${i}`, `ok ${i}`));
  const last = messages.at(-1) as { content: Record<string, unknown>[] };
  last.content = last.content.map((block) => ({ ...block, cache_control: { type: 'ephemeral' } }));
  return messages;
}

const body = (messages: unknown[]) => ({ model: 'claude-sonnet-4-5', system: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }], messages });
const ON = { fold: true, toolTiers: false } as const;

describe('foldCandidates', () => {
  it('folds an old large result, never one of the last turns, a small one, or one the agent quoted since', () => {
    expect(foldCandidates(conversation(5), new Set()).map((f) => f.toolUseId)).toEqual(['t0']);
    expect(foldCandidates(conversation(3), new Set())).toEqual([]);
    expect(foldCandidates(conversation(5, 'short'), new Set())).toEqual([]);
    const quoted = conversation(5);
    quoted.splice(3, 0, { role: 'assistant', content: [{ type: 'text', text: 'see: line 17 of a long build log that nobody needs again' }] }, { role: 'user', content: 'go on' });
    expect(foldCandidates(quoted, new Set())).toEqual([]);
    expect(foldCandidates(conversation(5, [{ type: 'image', source: {} }]), new Set())).toEqual([]);
    expect(foldCandidates(conversation(5, [{ type: 'text', text: BIG }]), new Set()).map((f) => f.text)).toEqual([BIG]);
  });

  it('keeps the block shape and leaves a result whose text changed', () => {
    const folds = new Map([['t0', { text: BIG, marker: 'M' }]]);
    const asBlocks = applyFolds(conversation(5, [{ type: 'text', text: BIG }]), folds);
    expect((asBlocks.messages[2] as { content: { content: unknown }[] }).content[0]?.content).toEqual([{ type: 'text', text: 'M' }]);
    expect(applyFolds(conversation(5, `${BIG}!`), folds).folded).toEqual([]);
  });
});

describe('stepSession', () => {
  it('folds only after the cache expired, then keeps the same fold in every later request', () => {
    const first = stepSession(body(conversation(5)), undefined, 0, ON, true);
    expect(first.folded).toBe(0);
    const warm = stepSession(body(conversation(6)), first.memory, TTL_5M_MS, ON, true);
    expect(warm.folded).toBe(0);
    const cold = stepSession(body(conversation(7)), warm.memory, 2 * TTL_5M_MS + 1, ON, true);
    expect(cold).toMatchObject({ cold: true, foldedNow: 1, folded: 1 });
    expect(cold.stash.map((e) => Buffer.from(e.bytes).toString('utf8'))).toEqual([BIG]);
    const marker = JSON.stringify(cold.body).match(/\[tokenless retrieve (\d+)\]/)?.[1] ?? '';
    expect(parseMarker(marker)).toBe(cold.stash[0]?.key);
    expect(cold.shown).toEqual([cold.stash[0]?.key]);
    const next = stepSession(body(conversation(8)), cold.memory, 2 * TTL_5M_MS + 2, ON, true);
    expect(next).toMatchObject({ cold: false, foldedNow: 0, folded: 1 });
    expect(next.stash).toEqual([]);
    // The forwarded prompt of the next request extends the folded one byte for byte (the breakpoint aside).
    const strip = (m: unknown) => JSON.stringify(m, (key, value: unknown) => (key === 'cache_control' ? undefined : value));
    const prefix = (cold.body['messages'] as unknown[]).map(strip);
    expect((next.body['messages'] as unknown[]).slice(0, prefix.length).map(strip)).toEqual(prefix);
    expect(countBreakpoints(next.body)).toBe(2);
  });

  it('judges expiry by the longest TTL the conversation sets, and does nothing when switched off', () => {
    const hour = conversation(7).map((m) => JSON.parse(JSON.stringify(m).replaceAll('{"type":"ephemeral"}', '{"type":"ephemeral","ttl":"1h"}')) as unknown);
    expect(breakpointTtl(hour)).toBe(60 * 60_000);
    const memory: SessionMemory = { lastAt: 0, folds: new Map(), stubs: null };
    expect(stepSession(body(hour), memory, 30 * 60_000, ON, true).folded).toBe(0);
    expect(stepSession(body(hour), memory, 61 * 60_000, ON, true).folded).toBe(1);
    expect(stepSession(body(conversation(7)), memory, 61 * 60_000, { fold: false, toolTiers: false }, true).folded).toBe(0);
  });

  it('shares a session key across requests whose breakpoints moved', () => {
    expect(sessionKey(body(conversation(5)))).toBe(sessionKey(body(conversation(9))));
    expect(sessionKey(body(conversation(5)))).not.toBe(sessionKey({ ...body(conversation(5)), system: 'other' }));
  });

  it('stubs unused non-core tools at the first request only, keeps them byte-identical, promotes on a cold cache', () => {
    const tools = [
      { name: 'Bash', description: 'Run a command.', input_schema: { type: 'object', properties: { command: { type: 'string' } } } },
      { name: 'WebFetch', description: 'Fetch a URL.\nLong details.', input_schema: { type: 'object', properties: { url: { type: 'string' } } } },
    ];
    const switches = { fold: false, toolTiers: true } as const;
    const first = stepSession({ ...body(conversation(1)), tools }, undefined, 0, switches, true);
    const forwarded = first.body['tools'] as { name: string; description: string; input_schema: unknown }[];
    expect(forwarded[0]).toBe(tools[0]);
    expect(forwarded[1]?.input_schema).toEqual({ type: 'object' });
    expect(forwarded[1]?.description).toMatch(/^Fetch a URL\. \(stub; its full definition: \[tokenless retrieve \d+\]\)$/);
    expect(JSON.parse(Buffer.from(first.stash[0]?.bytes ?? []).toString('utf8'))).toEqual(tools[1]);
    const used = [...conversation(2), { role: 'assistant', content: [{ type: 'tool_use', id: 'w', name: 'WebFetch', input: { url: 'x' } }] }, result('w', 'page')];
    const warm = stepSession({ ...body(used), tools }, first.memory, 60_000, switches, true);
    expect(JSON.stringify(warm.body['tools'])).toBe(JSON.stringify(forwarded));
    const cold = stepSession({ ...body(used), tools }, warm.memory, 60_000 + TTL_5M_MS + 1, switches, true);
    expect(cold.body['tools']).toEqual(tools);
  });

  it('makes no new fold or stub unless the model can retrieve it: a Bash tool offered and a session named', () => {
    const bash = { name: 'Bash', description: 'Run a command.', input_schema: { type: 'object', properties: { command: { type: 'string' } } } };
    const other = { name: 'WebFetch', description: 'Fetch a URL.', input_schema: { type: 'object', properties: { url: { type: 'string' } } } };
    expect(canRetrieve({ tools: [other, bash] }, 'sess')).toBe(true);
    expect(canRetrieve({ tools: [bash] }, null)).toBe(false);
    expect(canRetrieve({ tools: [bash] }, '')).toBe(false);
    expect(canRetrieve({ tools: [other] }, 'sess')).toBe(false);
    expect(canRetrieve({}, 'sess')).toBe(false);
    const memory: SessionMemory = { lastAt: 0, folds: new Map(), stubs: null };
    const cold = stepSession(body(conversation(7)), memory, 2 * TTL_5M_MS, ON, false);
    expect(cold).toMatchObject({ cold: true, foldedNow: 0, folded: 0, stash: [], shown: [] });
    expect(JSON.stringify(cold.body)).not.toContain('tokenless retrieve');
    const tiers = stepSession({ ...body(conversation(1)), tools: [bash, other] }, undefined, 0, { fold: false, toolTiers: true }, false);
    expect(tiers.body['tools']).toEqual([bash, other]);
    expect(tiers.stubbed).toBe(0);
  });

  it('keeps a fold made earlier even in a request that could not retrieve a new one (the cached prefix holds it)', () => {
    const memory: SessionMemory = { lastAt: 0, folds: new Map(), stubs: null };
    const cold = stepSession(body(conversation(7)), memory, 2 * TTL_5M_MS, ON, true);
    const later = stepSession(body(conversation(8)), cold.memory, 2 * TTL_5M_MS + 1, ON, false);
    expect(later).toMatchObject({ foldedNow: 0, folded: 1 });
  });
});
