import { describe, expect, it } from 'vitest';
import type { NormalisedUsage } from '../../../src/context/engines/usage.ts';
import { PING_MARGIN_MS } from '../../../src/cost/keep-warm.ts';
import { parseBody } from '../../../src/gateway/canonical-json.ts';
import { KeepWarm, preparePing, type Ping, type PingResult, type Prepared } from '../../../src/gateway/keep-warm.ts';
import { countBreakpoints, TTL_5M_MS } from '../../../src/gateway/session-policy.ts';

const MINUTE = 60_000;
const INTERVAL = TTL_5M_MS - PING_MARGIN_MS;

/** A Claude Code-shaped request: tools, a system prompt and the last message each carrying a breakpoint. */
function request(first = 'fix the bug', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model: 'claude-sonnet-4-5',
    max_tokens: 32000,
    stream: true,
    tools: [{ name: 'Bash', description: 'run a command', input_schema: { type: 'object' } }],
    system: [{ type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: [{ type: 'text', text: first, cache_control: { type: 'ephemeral' } }] }],
    ...extra,
  };
}

const prepare = (body: Record<string, unknown>): Prepared => preparePing(parseBody(Buffer.from(JSON.stringify(body))));
// 100k cached tokens of Sonnet 4.5 ($3/M input): a ping costs $0.030015, a re-write $0.375, so the budget holds 12 pings.
const CACHED: NormalisedUsage = { cache_read: 100_000, cache_write: 0, raw_input: 10, output: 50 };

function harness(options: { capDollars?: number; idleLimitMs?: number; answer?: (ping: Ping) => number } = {}) {
  let now = 0;
  const sent: { at: number; ping: Ping }[] = [];
  const logged: PingResult[] = [];
  const warm = new KeepWarm(
    { idleLimitMs: options.idleLimitMs ?? 60 * MINUTE, tickMs: 3_600_000, ...(options.capDollars === undefined ? {} : { capDollars: options.capDollars }) },
    (ping) => {
      sent.push({ at: now, ping });
      return Promise.resolve({ status: options.answer?.(ping) ?? 200, usage: CACHED });
    },
    () => now,
    (_ping, result) => logged.push(result),
  );
  /** Moves the clock to `to` in ticks of 10 s (each tick sends what is due), letting each ping settle. */
  const advance = async (to: number): Promise<void> => {
    while (now < to) {
      now = Math.min(to, now + 10_000);
      warm.tick();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const respond = (body = request(), sessionId: string | null = 's1'): Prepared => {
    const prepared = prepare(body);
    warm.clientRequest(prepared.key);
    warm.responded(prepared, sessionId, '/v1/messages', { 'x-api-key': 'k' }, 200, CACHED);
    return prepared;
  };
  return { warm, sent, logged, advance, respond, at: () => now };
}

describe('keep-warm pings (the gateway side of the ski-rental rule)', () => {
  it('no pause: a client that comes back within the TTL gets no ping', async () => {
    const h = harness();
    for (let turn = 0; turn < 10; turn += 1) {
      h.respond();
      await h.advance(h.at() + 4 * MINUTE);
    }
    expect(h.sent).toEqual([]);
  });

  it('many short pauses, each shorter than the ping interval: never a ping', async () => {
    const h = harness();
    for (let turn = 0; turn < 5; turn += 1) {
      h.respond();
      await h.advance(h.at() + INTERVAL - 10_000);
    }
    expect(h.sent).toEqual([]);
  });

  it('one 20-minute pause is bridged by 4 pings, each 30 s before the entry would expire', async () => {
    const h = harness();
    h.respond();
    await h.advance(20 * MINUTE);
    expect(h.sent.map((s) => s.at)).toEqual([1, 2, 3, 4].map((n) => n * INTERVAL));
    // The client's request after the pause reaches the entry: its last refresh is within the TTL.
    expect(20 * MINUTE - (h.sent.at(-1)?.at ?? 0)).toBeLessThanOrEqual(TTL_5M_MS);
    h.respond();
    expect(h.warm.pending()).toBe(1);
  });

  it('a pause that never ends: pings only while they cost less than one re-write, then the entry is let go', async () => {
    const h = harness({ idleLimitMs: 24 * 60 * MINUTE });
    h.respond();
    await h.advance(3 * 60 * MINUTE);
    // 12 pings x $0.030015 = $0.36 <= $0.375 (one re-write); a 13th would pass it.
    expect(h.sent.length).toBe(12);
    expect(h.warm.pending()).toBe(0);
  });

  it("the person's cap and the idle limit stop the pings first", async () => {
    const capped = harness({ capDollars: 0.07 });
    capped.respond();
    await capped.advance(2 * 60 * MINUTE);
    expect(capped.sent.length).toBe(2);
    const idle = harness({ idleLimitMs: 10 * MINUTE });
    idle.respond();
    await idle.advance(2 * 60 * MINUTE);
    expect(idle.sent.map((s) => s.at)).toEqual([INTERVAL, 2 * INTERVAL]);
  });

  it.each([[500], [400], [0]])('a ping answered %i stops that session, and is logged', async (status) => {
    const h = harness({ answer: () => status });
    h.respond();
    await h.advance(60 * MINUTE);
    expect(h.sent.length).toBe(1);
    expect(h.logged.map((r) => r.status)).toEqual([status]);
    expect(h.warm.pending()).toBe(0);
  });

  it.each([[429], [529]])('a ping answered %i stops every session', async (status) => {
    const h = harness({ answer: (ping) => (ping.sessionId === 's1' ? status : 200) });
    h.respond(request('one'), 's1');
    h.respond(request('two'), 's2');
    expect(h.warm.pending()).toBe(2);
    await h.advance(60 * MINUTE);
    expect(h.sent.length).toBe(2);
    expect(h.warm.pending()).toBe(0);
  });

  it('SessionEnd stops the session, and a response finishing after it schedules nothing', async () => {
    const h = harness();
    h.respond(request('one'), 's1');
    h.respond(request('two'), 's2');
    h.warm.endSession('s1');
    h.respond(request('one'), 's1');
    await h.advance(INTERVAL + 10_000);
    expect(h.sent.map((s) => s.ping.sessionId)).toEqual(['s2']);
  });

  it("the client's own request drops the pings pending for its prompt", async () => {
    const h = harness();
    const prepared = h.respond();
    h.warm.clientRequest(prepared.key);
    await h.advance(60 * MINUTE);
    expect(h.sent).toEqual([]);
  });

  it('nothing is kept warm without a cached prompt, an answer of 200 or a priced model', () => {
    const h = harness();
    const prepared = prepare(request());
    h.warm.responded(prepared, 's', '/v1/messages', {}, 200, { cache_read: 0, cache_write: 0, raw_input: 900, output: 1 });
    h.warm.responded(prepared, 's', '/v1/messages', {}, 500, CACHED);
    h.warm.responded(prepare(request('x', { model: 'some-other-model' })), 's', '/v1/messages', {}, 200, CACHED);
    expect(h.warm.pending()).toBe(0);
  });
});

describe('what a ping sends', () => {
  it('the forwarded request byte for byte, but max_tokens 1 and stream false: the same tools, system, messages and breakpoints', () => {
    const body = request();
    const text = JSON.stringify(body);
    const prepared = prepare(body);
    expect(prepared.ok).toBe(true);
    if (!prepared.ok) return;
    const ping = prepared.pingBody.toString('utf8');
    expect(ping).toBe(text.replace('"max_tokens":32000', '"max_tokens":1').replace('"stream":true', '"stream":false'));
    expect(countBreakpoints(JSON.parse(ping))).toBe(countBreakpoints(body));
    expect(prepared.ttlMs).toBe(TTL_5M_MS);
  });

  it('adaptive thinking stays as sent; a thinking budget, a body not in canonical form or no breakpoint declines', () => {
    expect(prepare(request('x', { thinking: { type: 'adaptive' } })).ok).toBe(true);
    expect(prepare(request('x', { thinking: { type: 'enabled', budget_tokens: 4000 } }))).toMatchObject({ ok: false, reason: 'thinking budget' });
    expect(preparePing(parseBody(Buffer.from(JSON.stringify(request(), null, 1))))).toMatchObject({ ok: false, reason: 'not in canonical JSON form' });
    const bare = { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
    expect(prepare(bare)).toMatchObject({ ok: false, reason: 'no cache breakpoint' });
  });

  it('a 1-hour entry is pinged on the hour, not every five minutes', () => {
    const body = request();
    for (const block of [...(body['system'] as Record<string, unknown>[]), ...((body['messages'] as { content: Record<string, unknown>[] }[])[0]?.content ?? [])]) block['cache_control'] = { type: 'ephemeral', ttl: '1h' };
    expect(prepare(body)).toMatchObject({ ok: true, ttlMs: 60 * MINUTE });
  });
});
