import { describe, expect, it } from 'vitest';
import { ONLINE_DEFAULT, onlineDecisions } from '../../../src/cost/online-policy.ts';

const MIN = 60_000;
/** Request times from the gaps between them (minutes). */
const times = (gaps: readonly number[]) => gaps.reduce<number[]>((at, gap) => [...at, (at.at(-1) ?? 0) + gap * MIN], [0]);
const ttls = (gaps: readonly number[], rule = ONLINE_DEFAULT) => onlineDecisions(times(gaps), rule).map((d) => d.ttl);

describe('online TTL choice: decided per request from the gaps seen so far', () => {
  it('no pause: every request stays at 5 minutes', () => {
    expect(ttls([1, 2, 4.9, 3])).toEqual(['5m', '5m', '5m', '5m', '5m']);
  });

  it('one long pause: 1 hour from the request after it on, never before (no hindsight)', () => {
    expect(ttls([1, 30, 1, 1])).toEqual(['5m', '5m', '1h', '1h', '1h']);
  });

  it('many short gaps, none over 5 minutes, never switch', () => {
    expect(ttls(Array.from({ length: 20 }, () => 4.5)).every((t) => t === '5m')).toBe(true);
  });

  it('a rule that waits for two pauses switches at the second', () => {
    expect(ttls([10, 1, 10, 1], { switchAfterPauses: 2, keepWarm: false })).toEqual(['5m', '5m', '5m', '1h', '1h']);
  });

  it('the decision for a request does not change with what comes after it', () => {
    const prefix = ttls([1, 2]);
    expect(ttls([1, 2, 40]).slice(0, 3)).toEqual(prefix);
  });
});
