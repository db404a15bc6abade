import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../../src/protocol/depth.ts';

const nested = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

describe('nestsDeeperThan', () => {
  it.each([
    [1, 1, false],
    [2, 1, true],
    [MAX_JSON_DEPTH, MAX_JSON_DEPTH, false],
    [MAX_JSON_DEPTH + 1, MAX_JSON_DEPTH, true],
  ])('an array nested %i deep against a limit of %i: %s', (depth, limit, expected) => {
    expect(nestsDeeperThan(nested(depth), limit)).toBe(expected);
  });

  it('counts objects and arrays alike, and scalars not at all', () => {
    expect(nestsDeeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [{ b: [] }] }, 3)).toBe(true);
    expect(nestsDeeperThan('x', 0)).toBe(false);
  });

  it('walks 100k levels without recursing', () => {
    expect(nestsDeeperThan(JSON.parse(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`))).toBe(true);
  });
});
