import { describe, expect, it } from 'vitest';
import { hookCallLine, hookCallOutcome, hookCallPoints, LATENCY_BOUNDARIES_MS, parseHookCalls, type HookCall } from '../../../src/telemetry/hook-calls.ts';

const call = (ms: number, overrides: Partial<HookCall> = {}): HookCall => ({ ts: 1_000 + ms, harness: 'claude-code', lifecycle: 'post_tool', ms, outcome: 'passthrough', disposition: null, ...overrides });

describe('hook calls as metric points', () => {
  it('a call round-trips through its log line, narrowed to what may be exported', () => {
    const line = hookCallLine(call(41.26, { harness: '/home/alice/bin/agent', lifecycle: 'git push origin main', outcome: 'answered', disposition: 'cat ~/.ssh/id_rsa' }));
    expect(line.endsWith('\n')).toBe(true);
    expect(line).not.toContain('alice');
    expect(line).not.toContain('push');
    expect(line).not.toContain('ssh');
    expect(parseHookCalls(line)).toEqual({ calls: [{ ts: 1_041, harness: 'other', lifecycle: 'other', ms: 41.3, outcome: 'answered', disposition: 'other' }], skipped: 0 });
    expect(parseHookCalls(hookCallLine(call(5, { disposition: 'no_savings' }))).calls[0]?.disposition).toBe('no_savings');
  });

  it('a tampered or cut-off line is skipped, never exported as it stands', () => {
    const good = hookCallLine(call(30));
    const lines = [
      good,
      '{"ts":1,"h":"claude-code","l":"pre_tool","ms":-1,"o":"answered"}\n',
      '{"ts":1,"h":"claude-code","l":"pre_tool","ms":5,"o":"cat /etc/passwd"}\n',
      '{"ts":1,"h":"/etc/passwd","l":"pre_tool","ms":5,"o":"error"}\n',
      good.slice(0, 20),
    ].join('');
    const parsed = parseHookCalls(lines);
    expect(parsed.skipped).toBe(3);
    expect(parsed.calls.map((c) => c.harness)).toEqual(['claude-code', 'other']);
  });

  it('buckets each call by its upper bound, one series per harness and lifecycle, counts per outcome', () => {
    const calls = [call(9), call(10), call(11, { disposition: 'no_savings' }), call(140), call(20_000 / 2), call(60_000, { outcome: 'error' }), call(30, { harness: 'codex', lifecycle: 'pre_tool', outcome: 'answered', disposition: 'applied' })];
    const { latency, counts } = hookCallPoints(calls);
    const claude = latency.find((point) => point.attributes.harness === 'claude-code');
    expect(claude?.bucketCounts).toHaveLength(LATENCY_BOUNDARIES_MS.length + 1);
    // <=10: 9 and 10; <=25: 11; <=150: 140; <=10000: 10000; overflow: 60000.
    expect(claude?.bucketCounts).toEqual([2, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 1]);
    expect([claude?.count, claude?.min, claude?.max, claude?.sum]).toEqual([6, 9, 60_000, 9 + 10 + 11 + 140 + 10_000 + 60_000]);
    expect(latency).toHaveLength(2);
    expect(counts.map((point) => [point.attributes.harness, point.attributes.outcome, point.attributes.disposition ?? '-', point.value]).sort()).toEqual([
      ['claude-code', 'error', '-', 1],
      ['claude-code', 'passthrough', '-', 4],
      ['claude-code', 'passthrough', 'no_savings', 1],
      ['codex', 'answered', 'applied', 1],
    ]);
  });

  it('names how a process ended from its exit code and stdout', () => {
    expect([hookCallOutcome(0, '{}\n'), hookCallOutcome(0, ''), hookCallOutcome(1, ''), hookCallOutcome(2, '')]).toEqual(['answered', 'passthrough', 'error', 'malformed']);
  });
});
