/**
 * A test report without its closing counts: `npm test 2>&1 | head -100`, a run the agent or a timeout cut short, a
 * verbose reporter whose summary went to a file. Every runner's own view needs those counts to tell a passing run
 * from a failing one, so they decline, and the agent reads hundreds of lines that each say one test passed.
 *
 * This view folds only those lines: each run of them becomes one line per test file with how many passed. Every
 * other line (a failing test, its error, console output, a runner's banner) stays where it was, so nothing that
 * says what went wrong can be lost; the original is one retrieval away like any lossy view.
 */
import { joinLines, lossy, makeView, splitLines, stripAnsi } from '../text.ts';
import type { CommandFilter, CommandOutput, StreamCandidate } from '../types.ts';

/**
 * One passing test, as each runner prints it. The `✓` family (vitest, jest, mocha, bun, node:test's spec reporter)
 * also marks a passing file (`✓ src/a.test.ts (12 tests) 5ms`); pytest -v, libtest (cargo test) and unittest -v
 * end the test's line with their verdict.
 */
export const PASSING_TEST_LINE = /^\s*(?:\u2713|\u221a|\u2714)\s+\S|^\S+\.py::\S.*\sPASSED(?:\s+\[\s*\d+%\])?$|^\S.* \.\.\. ok$/;

/** Fewer passing lines than this are left as printed: folding them saves less than the fold line costs to read. */
const MIN_RUN = 3;

const JS_TEST_FILE = String.raw`\S+\.(?:[cm]?[jt]sx?|vue|svelte)`;
/** vitest's line for a whole passing file: `✓ src/a.test.ts (12 tests) 5ms`. */
const FILE_LINE = new RegExp(String.raw`^(${JS_TEST_FILE}) \((\d+) tests?\)`);
const TEST_IN_FILE = new RegExp(String.raw`^(${JS_TEST_FILE}) > |^(\S+\.py)::`);

/** The test file a passing line names, when it names one (vitest's `file > suite > test`, pytest's `file::test`),
 * and how many tests it stands for. */
function testsOf(line: string): { file: string; tests: number } {
  const t = line.trim().replace(/^(?:\u2713|\u221a|\u2714)\s+/, '');
  const whole = FILE_LINE.exec(t);
  if (whole !== null) return { file: whole[1] ?? '', tests: Number(whole[2]) };
  const one = TEST_IN_FILE.exec(t);
  return { file: one === null ? '' : (one[1] ?? one[2] ?? ''), tests: 1 };
}

/** A run of passing lines as one line per file it names (in order), or one count when it names none. */
function foldRun(run: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const line of run) {
    const { file, tests } = testsOf(line);
    counts.set(file, (counts.get(file) ?? 0) + tests);
  }
  const indent = /^\s*/.exec(run[0] ?? '')?.[0] ?? '';
  return [...counts].map(([file, n]) => `${indent}\u2713 ${file === '' ? '' : `${file}: `}${n} passed`);
}

/** The lines with each run of at least MIN_RUN passing-test lines (blank lines inside a run belong to it) folded. */
export function foldPassingLines(lines: readonly string[]): string[] {
  const result: string[] = [];
  let i = 0;
  while (i < lines.length) {
    if (!PASSING_TEST_LINE.test(lines[i] ?? '')) {
      result.push(lines[i] ?? '');
      i++;
      continue;
    }
    const run: string[] = [];
    let end = i;
    while (end < lines.length) {
      const line = lines[end] ?? '';
      if (PASSING_TEST_LINE.test(line)) run.push(line);
      else if (line.trim() !== '') break;
      end++;
    }
    // Trailing blank lines are not the run's: they separate it from what follows.
    while (end > i && (lines[end - 1] ?? '').trim() === '') end--;
    if (run.length >= MIN_RUN) result.push(...foldRun(run));
    else result.push(...lines.slice(i, end));
    i = end;
  }
  return result;
}

function viewStream(text: string): string | null {
  if (text === '') return null;
  // trimEnd, not /\s+$/: that pattern is quadratic on a long run of blanks inside a line.
  const lines = splitLines(stripAnsi(text)).map((l) => l.trimEnd());
  const folded = foldPassingLines(lines);
  return folded.length === lines.length ? null : joinLines(folded);
}

export function passingLinesView(name: string, output: CommandOutput): StreamCandidate | null {
  const out = viewStream(output.stdout);
  const err = viewStream(output.stderr);
  return makeView(name, output, out === null ? null : lossy(out), err === null ? null : lossy(err));
}

/** Never chosen by a command's name: only the recogniser names it, for output that is a report without counts. */
export const passingLinesFilter: CommandFilter = {
  name: 'test-lines',
  matches: () => false,
  apply: (output) => passingLinesView('test-lines', output),
};
