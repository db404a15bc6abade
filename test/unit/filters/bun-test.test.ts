/** The bun test view on real `bun test` outputs of three projects: a recorded Claude Code session's passing run
 * (PackmindHub/context-evaluator, test/fixtures/bun-test), and two runs users pasted into oven-sh/bun issues. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findFilter } from '../../../src/filters/registry.ts';
import type { CommandOutput } from '../../../src/filters/types.ts';
import { applyFilter } from '../../helpers/streams.ts';

const contextEvaluator = readFileSync(join(import.meta.dirname, '../../fixtures/bun-test/context-evaluator-pass.txt'), 'utf8');

// https://github.com/oven-sh/bun/issues/15488 (a user's project, bun 1.1.37): passing, with per-test lines.
const passingWithTests = `bun test v1.1.37 (8ca0eb83)

src/custom-form/process-custom-form.test.ts:
✓ processCustomForm > Eye pain [6.93ms]
✓ processCustomForm > Awareness [0.80ms]

src/progress-note/categorization.test.ts:

src/lab-order/process-lab-order.test.ts:

src/adapters/langchain.test.ts:
✓ categorizeProgressNote > Fall event [55.15ms]
✓ processLabOrder > From the second of October to the fourteenth, do a lipid panel every morning. [13.58ms]
✓ embedding > Returns correct shape [1.09ms]

src/other-order/process-other-order.test.ts:

src/medication-order/process-medication-order.test.ts:

 5 pass
 0 fail
 21 expect() calls
Ran 5 tests across 6 files. [496.00ms]
`;

// https://github.com/oven-sh/bun/issues/5559 (nikitavoloboev/ts, bun 1.0.3): a failing run.
const failing = `bun test v1.0.3 (b651b16f)

lib/file.test.ts:
run!!
/Users/nikiv/src/data data dir
undefined
 8 |     value: "another value"
 9 |   }]
10 |   console.log("run!!")
11 |   const res = await writeContentToSrcData(arrayObject, "test-array.json")
12 |   console.log(res)
13 |   expect(2 + 2).toBe(5);
      ^
error: expect(received).toBe(expected)

Expected: 5
Received: 4

      at /Users/nikiv/src/ts/lib/file.test.ts:13:2
✗ save array of JSON in ~/src/data [1.48ms]

 0 pass
 1 fail
 1 expect() calls
Ran 1 tests across 1 files. [28.00ms]
`;

function view(argv: string[], stream: 'stdout' | 'stderr', text: string, exitCode: number) {
  const output: CommandOutput = { argv, stdout: stream === 'stdout' ? text : '', stderr: stream === 'stderr' ? text : '', exitCode };
  return applyFilter(findFilter(argv), output);
}

describe('bun test view', () => {
  it('shows a passing run of a recorded session as its counts, stashed', () => {
    const v = view(['bun', 'run', 'test'], 'stdout', contextEvaluator, 0);
    expect(v?.filter).toBe('script-test');
    expect(v?.stdout.lossy).toBe(true);
    expect(v?.stdout.text).toBe('1351 pass\n0 fail\n2939 expect() calls\nRan 1351 tests across 61 files. [955.00ms]\n');
  });

  it('recognises bun test itself, with the report on stderr (bun writes it there)', () => {
    const v = view(['bun', 'test', 'src'], 'stderr', passingWithTests, 0);
    expect(v?.stderr.lossy).toBe(true);
    expect(v?.stderr.text).toBe('5 pass\n0 fail\n21 expect() calls\nRan 5 tests across 6 files. [496.00ms]\n');
    expect(v?.stdout.text).toBe('');
  });

  it('leaves a real failing run as it is: nothing in it is a passing test', () => {
    expect(view(['bun', 'test'], 'stderr', failing, 1)).toBeNull();
  });

  it('keeps a failing run whole but for the passing tests, and never calls a run passed against its exit status', () => {
    const v = view(['bun', 'test', 'src'], 'stderr', passingWithTests, 1);
    expect(v?.stderr.lossy).toBe(true);
    const text = v?.stderr.text ?? '';
    expect(text).not.toContain('✓');
    for (const needed of ['src/medication-order/process-medication-order.test.ts:', '5 pass', '0 fail', '21 expect() calls', 'Ran 5 tests across 6 files.']) {
      expect(text, needed).toContain(needed);
    }
    // The streams merged (2>&1, or Claude Code's own capture): a failure's diagnostics stay around the dropped lines.
    const merged = view(['bun', 'test'], 'stdout', `${failing}${passingWithTests}`, 1);
    for (const needed of ['error: expect(received).toBe(expected)', 'Expected: 5', 'Received: 4', 'lib/file.test.ts:13:2', '✗ save array of JSON', '1 fail']) {
      expect(merged?.stdout.text, needed).toContain(needed);
    }
    expect(merged?.stdout.text).not.toContain('✓ embedding');
  });
});
