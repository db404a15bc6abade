/**
 * A test report that lost its closing counts (`| head -100`, a cut or still-running run): the passing-test lines fold,
 * every other line stays, and the original is in the stash. Real reports of six projects and five runners, each cut
 * where a `head` would cut it: vitest (path-to-regexp), mocha (express), jest (a scratch project, test/fixtures/jest),
 * pytest -v (colorama, networkx: test/fixtures/pytest-verbose) and unittest -v (more-itertools).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recognise, recognisedView } from '../../../src/filters/recognise.ts';
import { PASSING_TEST_LINE, foldPassingLines } from '../../../src/filters/test/passing-lines.ts';
import { stripAnsi } from '../../../src/filters/text.ts';
import type { CommandOutput } from '../../../src/filters/types.ts';
import { ROOT } from '../../helpers/root.ts';
import { DEFAULT_CONTEXT } from '../../helpers/streams.ts';

const FIXTURES = join(ROOT, 'test', 'fixtures');
const read = (path: string): string => readFileSync(join(FIXTURES, path), 'utf8');

/** The first `share` of the lines, cut where `head` would cut: on a line boundary. */
const head = (text: string, share: number): string => {
  const lines = text.split('\n');
  return `${lines.slice(0, Math.floor(lines.length * share)).join('\n')}\n`;
};

const REPORTS: Readonly<Record<string, { stdout: string; stderr: string }>> = {
  'vitest, path-to-regexp (one failing test)': { stdout: head(read('corpus-commands/cases/test-vitest-run-fail-path-to-regexp/stdout.txt'), 0.6), stderr: '' },
  'mocha, express': { stdout: head(read('corpus-commands/cases/test-npm-test-pass-express/stdout.txt'), 0.5), stderr: '' },
  'jest --verbose, scratch project': { stdout: '', stderr: head(read('jest/verbose.stderr.txt'), 0.7) },
  'pytest -v, colorama': { stdout: head(read('pytest-verbose/colorama.txt'), 0.8), stderr: '' },
  'pytest -v | head -300, networkx': { stdout: read('pytest-verbose/networkx-head-300.txt'), stderr: '' },
  'unittest -v, more-itertools': { stdout: '', stderr: head(read('corpus-commands/cases/test-make-test-unittest-v-more-itertools/stderr.txt'), 0.5) },
};

const output = (report: { stdout: string; stderr: string }): CommandOutput => ({ argv: ['./scripts/test.sh'], ...report, exitCode: 0 });

describe('a test report without its counts', () => {
  for (const [name, report] of Object.entries(REPORTS)) {
    it(`${name}: folds the passing lines, keeps every other line in order, stashes the original`, () => {
      const view = recognisedView(output(report), DEFAULT_CONTEXT);
      expect(view?.filter, name).toBe('test-lines');
      if (view === null) return;
      for (const stream of ['stdout', 'stderr'] as const) {
        const original = report[stream];
        if (original === '') continue;
        const shown = stripAnsi(view[stream]).split('\n');
        // Every line that does not say a test passed is shown, in its order.
        let at = 0;
        for (const line of stripAnsi(original).split('\n').map((l) => l.trimEnd())) {
          if (line === '' || PASSING_TEST_LINE.test(line)) continue;
          const found = shown.indexOf(line, at);
          expect(found, `${name}: ${line}`).toBeGreaterThanOrEqual(at);
          at = found + 1;
        }
        expect(view.stash.map((entry) => Buffer.from(entry.bytes).toString('utf8'))).toContain(original);
      }
      expect(Buffer.byteLength(view.output)).toBeLessThan(Buffer.byteLength(report.stdout + report.stderr) / 2);
    });
  }

  it('says how many passed in each file', () => {
    const folded = foldPassingLines([
      ' RUN  v3.1.4 /p',
      '',
      ' \u2713 test/a.test.ts > suite > one 1ms',
      ' \u2713 test/a.test.ts > suite > two 0ms',
      ' \u2713 test/b.test.ts (12 tests) 5ms',
      ' \u2713 test/a.test.ts > suite > three 0ms',
      ' \u00d7 test/a.test.ts > suite > four 2ms',
      'tests/x.py::test_a PASSED [ 10%]',
      'tests/x.py::test_b PASSED [ 20%]',
      'tests/x.py::test_c PASSED [ 30%]',
      'tests/x.py::test_d FAILED [ 40%]',
    ]);
    expect(folded).toEqual([' RUN  v3.1.4 /p', '', ' \u2713 test/a.test.ts: 3 passed', ' \u2713 test/b.test.ts: 12 passed', ' \u00d7 test/a.test.ts > suite > four 2ms', '\u2713 tests/x.py: 3 passed', 'tests/x.py::test_d FAILED [ 40%]']);
  });

  it('leaves fewer than three passing lines in a row as printed', () => {
    const lines = ['test a ... ok', 'test b ... ok', 'error: boom', 'test c ... ok'];
    expect(foldPassingLines(lines)).toEqual(lines);
  });

  it('is not claimed for a report with its counts, or for output that only mentions passing', () => {
    const whole = read('corpus-commands/cases/test-vitest-run-fail-path-to-regexp/stdout.txt');
    expect(recognise(whole, '')[0]?.filter.name).toBe('vitest');
    const log = Array.from({ length: 30 }, (_, i) => `step ${i}: \u2713 done`).join('\n');
    expect(recognise(log, '').map((claim) => claim.filter.name)).not.toContain('test-lines');
  });
});
