import { describe, expect, it } from 'vitest';
import { DEFAULT_PIPE_HOLD_MS, MAX_CALLER_HOLD_MS, pipeHoldMs } from '../../../src/runtime/run-hold.ts';

describe('pipeHoldMs', () => {
  it('holds briefly unless told otherwise', () => {
    expect(pipeHoldMs({})).toBe(DEFAULT_PIPE_HOLD_MS);
  });

  it("takes a harness's per-call hold, bounded", () => {
    expect(pipeHoldMs({ TOKENLESS_HOLD_MS: '10000' })).toBe(10_000);
    expect(pipeHoldMs({ TOKENLESS_HOLD_MS: '999999999' })).toBe(MAX_CALLER_HOLD_MS);
  });

  it("lets the user's TOKENLESS_RUN_HOLD_MS win, 0 included", () => {
    expect(pipeHoldMs({ TOKENLESS_RUN_HOLD_MS: '0', TOKENLESS_HOLD_MS: '10000' })).toBe(0);
    expect(pipeHoldMs({ TOKENLESS_RUN_HOLD_MS: '2500' })).toBe(2_500);
  });

  it('ignores what is not a whole number of milliseconds', () => {
    for (const bad of ['', '-1', '1.5', '1e4', ' 100', 'soon']) {
      expect(pipeHoldMs({ TOKENLESS_RUN_HOLD_MS: bad, TOKENLESS_HOLD_MS: bad })).toBe(DEFAULT_PIPE_HOLD_MS);
    }
  });
});
