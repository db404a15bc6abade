/**
 * A filter file's inline tests: each gives an input, an exit code and the view the stages must produce. The
 * comparison is on the stages' text (the retrieval line and the "does it pay" check come after, in the runtime), and
 * a final newline is not significant, so `expected = """…"""` reads naturally in TOML.
 */
import { unifiedDiff } from '../../store/stats-diff.ts';
import { viewStreams, type FileFilter } from './filter.ts';

export interface InlineTestResult {
  readonly filter: string;
  readonly path: string;
  readonly name: string;
  readonly passed: boolean;
  /** A unified diff of expected against actual when it failed. */
  readonly diff: string | null;
  /** Why it could not be judged (the stages ran out of time). */
  readonly error: string | null;
}

export function runInlineTests(filter: FileFilter): InlineTestResult[] {
  return filter.tests.map((test, index) => {
    const name = test.name ?? `test ${index + 1}`;
    const view = viewStreams(filter, { argv: [], stdout: test.input, stderr: '', exitCode: test.exit_code ?? 0 });
    const base = { filter: filter.name, path: filter.path, name };
    if (view === null) return { ...base, passed: false, diff: null, error: 'the stages ran out of their time budget on this input' };
    const actual = withFinalNewline(view.stdout);
    const expected = withFinalNewline(test.expected);
    if (actual === expected) return { ...base, passed: true, diff: null, error: null };
    return { ...base, passed: false, diff: unifiedDiff(expected, actual, { before: 'expected', after: 'actual' }).text, error: null };
  });
}

function withFinalNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}
