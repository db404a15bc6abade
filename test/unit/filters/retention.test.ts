import { describe, expect, it } from 'vitest';
import { stripAnsi } from '../../../src/filters/text.ts';
import { loadCorpusCase } from '../../helpers/fixtures.ts';
import { measure } from './corpus.ts';

/** What must survive filtering, extracted from the raw output by hand-written rules per tool (independent of the
 * filters): failing test names, assertion messages, error codes and locations. */
interface Facts {
  /** Strings that must appear verbatim in the filtered output. */
  readonly verbatim: string[];
  /** Grouped diagnostics: the file, the `line:col`, and the code must all appear (tsc/eslint/flake8 group by file). */
  readonly located: Array<{ file: string; where: string; code: string; message: string }>;
}

function lines(text: string): string[] {
  return stripAnsi(text).split('\n');
}

function grab(text: string, re: RegExp, group = 1): string[] {
  return lines(text).flatMap((l) => {
    const m = re.exec(l);
    return m === null ? [] : [(m[group] ?? '').trim()];
  });
}

const EXTRACT: Record<string, (stdout: string, stderr: string) => Facts> = {
  mocha: (out) => ({
    verbatim: [
      ...grab(out, /^\s+\d+\) (.+?):$/),
      ...grab(out, /^\s+((?:Assertion)?Error: .*)$/),
      ...grab(out, /^\s+at .*\((test\/[^)]+:\d+:\d+)\)$/),
      ...grab(out, /^\s*(\d+ (?:passing|failing|pending))/),
    ],
    located: [],
  }),
  vitest: (out, err) => ({
    verbatim: [
      ...grab(`${out}\n${err}`, /^ FAIL\s+(.+)$/).map((t) => t.split(' > ').pop() ?? t),
      ...grab(`${out}\n${err}`, /^(AssertionError: .*)$/),
      ...grab(`${out}\n${err}`, /^\s*❯ (src\/\S+:\d+:\d+)$/),
      ...grab(out, /^\s*Tests\s+(\d+ failed)/),
    ],
    located: [],
  }),
  pytest: (out) => ({
    verbatim: [
      ...grab(out, /^FAILED (\S+)/),
      ...grab(out, /^E\s+(\w*Error: .*)$/),
      ...grab(out, /^(tests\/\S+\.py:\d+)/),
      ...grab(out, /^=+ (\d+ failed)/),
    ],
    located: [],
  }),
  unittest: (_, err) => ({
    verbatim: [...grab(err, /^(FAIL: .*)$/), ...grab(err, /^(\w*Error: .*)$/), ...grab(err, /^(FAILED \(.*\))$/)],
    located: [],
  }),
  go: (out) => ({
    verbatim: [...grab(out, /^--- FAIL: (\S+)/), ...grab(out, /^\s+(\w+_test\.go:\d+: .*)$/), ...grab(out, /^(FAIL\s+\S+)/)],
    located: [],
  }),
  cargo: (out) => ({
    verbatim: [
      ...grab(out, /^---- (\S+) stdout ----$/),
      ...grab(out, /panicked at (\S+:\d+:\d+):$/),
      ...grab(out, /^(assertion .* failed)$/),
      ...grab(out, /^\s+(left: \d+|right: \d+)$/),
      ...grab(out, /^(test result: FAILED.*)$/),
    ],
    located: [],
  }),
  ctest: (out) => ({
    verbatim: [...grab(out, /^\s+\d+ - (\S+) \(Failed\)$/), ...grab(out, /^(\S+:\d+:\w+:FAIL.*)$/), ...grab(out, /^(\d+% tests passed.*)$/)],
    located: [],
  }),
  tsc: (out) => ({
    verbatim: grab(out, /^\s{2,}(\S.*)$/),
    located: lines(out).flatMap((l) => {
      const m = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(l);
      return m === null ? [] : [{ file: m[1] ?? '', where: `${m[2]}:${m[3]}`, code: m[4] ?? '', message: m[5] ?? '' }];
    }),
  }),
  eslint: (out) => {
    let file = '';
    const located: Facts['located'] = [];
    for (const l of lines(out)) {
      if (l.startsWith('/')) file = l;
      const m = /^\s+(\d+:\d+)\s+error\s+(.*?)\s{2,}(\S+)$/.exec(l);
      if (m !== null) located.push({ file, where: m[1] ?? '', code: m[3] ?? '', message: m[2] ?? '' });
    }
    return { verbatim: grab(out, /^(✖ \d+ problems?)/), located };
  },
  flake8: (out) => ({
    verbatim: [],
    located: lines(out).flatMap((l) => {
      const m = /^(.+?):(\d+):(\d+): ([A-Z]\d+) (.*)$/.exec(l) ?? /^(.+?):(\d+)():? error: (.*?)\s+\[([\w-]+)\]$/.exec(l);
      if (m === null) return [];
      const isMypy = m[3] === '';
      return [{ file: m[1] ?? '', where: isMypy ? m[2] ?? '' : `${m[2]}:${m[3]}`, code: (isMypy ? m[5] : m[4]) ?? '', message: (isMypy ? m[4] : m[5]) ?? '' }];
    }),
  }),
  gcc: (_, err) => ({
    verbatim: [...grab(err, /^(\S+:\d+:\d+: (?:error|warning): .*)$/), ...grab(err, /^(make: \*\*\*.*)$/)],
    located: [],
  }),
  goBuild: (_, err) => ({ verbatim: grab(err, /^(\.\/\S+\.go:\d+:\d+): /), located: [] }),
  rustc: (_, err) => ({
    verbatim: [...grab(err, /^(error\[E\d+\]: .*)$/), ...grab(err, /^\s*--> (\S+:\d+:\d+)$/), ...grab(err, /^(error: could not compile.*)$/)],
    located: [],
  }),
};

const CASES: ReadonlyArray<readonly [string, keyof typeof EXTRACT]> = [
  ['test-npm-test-fail-express', 'mocha'],
  ['test-mocha-single-file-fail-express', 'mocha'],
  ['test-vitest-run-fail-path-to-regexp', 'vitest'],
  ['test-npm-test-redos-timeout-path-to-regexp', 'vitest'],
  ['test-pytest-fail-more-itertools', 'pytest'],
  ['test-pytest-fail-tb-short-more-itertools', 'pytest'],
  ['test-unittest-fail-more-itertools', 'unittest'],
  ['test-go-test-fail-pflag', 'go'],
  ['test-go-test-run-v-fail-pflag', 'go'],
  ['test-cargo-test-fail-rust-fnv', 'cargo'],
  ['test-ctest-fail-cjson', 'ctest'],
  ['build-tsc-noemit-errors-path-to-regexp', 'tsc'],
  ['build-npm-run-build-errors-path-to-regexp', 'tsc'],
  ['build-npm-run-lint-errors-express', 'eslint'],
  ['build-flake8-more-itertools', 'flake8'],
  ['build-mypy-more-itertools', 'flake8'],
  ['build-make-werror-cjson', 'gcc'],
  ['build-go-build-errors-pflag', 'goBuild'],
  ['build-go-vet-printf-pflag', 'goBuild'],
  ['build-cargo-build-errors-rust-fnv', 'rustc'],
];

describe('failing tests, compiler errors and lint findings survive filtering', () => {
  it.each(CASES)('%s keeps every name, message, code and location', (id, tool) => {
    const c = loadCorpusCase(id);
    const facts = EXTRACT[tool]?.(c.stdout, c.stderr);
    if (facts === undefined) throw new Error(`no extractor for ${tool}`);
    expect(facts.verbatim.length + facts.located.length).toBeGreaterThan(0);
    const m = measure(c);
    const shown = stripAnsi(m.view === null ? `${c.stdout}\n${c.stderr}` : `${m.view.stdout.text}\n${m.view.stderr.text}`);
    for (const fact of facts.verbatim) expect(shown, fact).toContain(fact);
    // With no view the raw output is shown unchanged, so everything in it survives.
    for (const d of m.view === null ? [] : facts.located) {
      // The file heads its group; the location, code and message sit on one line inside that group.
      const start = shown.indexOf(d.file);
      expect(start, d.file).toBeGreaterThanOrEqual(0);
      const line = shown
        .slice(start)
        .split('\n')
        .find((l) => new RegExp(`(?:^| )${d.where.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?: |$)`).test(l) && l.includes(d.code));
      expect(line, `${d.file} ${d.where} ${d.code}`).toBeDefined();
      expect(line, d.message).toContain(d.message.replace(/ {2,}/g, ' '));
    }
  });
});
