/**
 * Content decides the view: each recogniser on real output of several projects and tool versions, under the
 * perturbations an agent's shell adds (colour, CRLF, a cut, a warning line first), and never on prose or noise.
 *
 * Fixtures: test/fixtures/corpus-commands (real projects: express, path-to-regexp, more-itertools, cJSON, pflag,
 * rust-fnv, k8s examples) and test/fixtures/recognise (captured 2026-12-03 on this machine from small projects made in
 * /tmp: a Rust lib with a failing `assert_eq!` and a binary with type errors (cargo 1.95.0), a Python `div` module
 * with a failing and an erroring unittest (Python 3.11.7, pytest 9.0.3), node:test with a failing subtest (Node
 * 20.20.2), tsc 5.9.3 and ESLint 9.39.5 on two files with errors, gcc 12.2.0 -Wall on a C file with undeclared names,
 * vitest 4.1.12 with one failing test, git 2.39.5 status/diff/log/show/blame of a two-commit repository, a second
 * ESLint project (other rules, .mjs), a Rust lib with warnings only, node:test describe/it with a skip, a CMake C
 * project built with make and tested with ctest (one failing test), ls -la, wc -l and pip list).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { namedView, recognise, recognisedView } from '../../../src/filters/recognise.ts';
import { findFilter } from '../../../src/filters/registry.ts';
import { argvForCase } from './corpus.ts';
import { stripAnsi } from '../../../src/filters/text.ts';
import type { CommandOutput } from '../../../src/filters/types.ts';
import { failingTests, rawLocations, shows } from '../../helpers/diagnostics-check.ts';
import { ROOT } from '../../helpers/root.ts';
import { DEFAULT_CONTEXT } from '../../helpers/streams.ts';

const CORPUS = join(ROOT, 'test', 'fixtures', 'corpus-commands', 'cases');
const FRESH = join(ROOT, 'test', 'fixtures', 'recognise');

function load(dir: string): CommandOutput {
  const read = (name: string): string => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : '');
  // The name of a program no filter knows: only the content can tell what this is.
  return { argv: ['./scripts/ci.sh'], stdout: read('stdout.txt'), stderr: read('stderr.txt'), exitCode: Number(read('exit_code').trim() || '0') };
}

const first = (output: Pick<CommandOutput, 'stdout' | 'stderr'>): string | null => recognise(output.stdout, output.stderr)[0]?.filter.name ?? null;

/** Each recogniser and the real outputs it must claim: at least three projects or versions each. */
const CLAIMS: Readonly<Record<string, readonly string[]>> = {
  vitest: ['corpus:test-vitest-run-fail-path-to-regexp', 'corpus:test-vitest-run-pass-path-to-regexp', 'corpus:test-npm-test-redos-timeout-path-to-regexp', 'fresh:vitest-fail'],
  mocha: ['corpus:test-mocha-single-file-fail-express', 'corpus:test-npm-test-fail-express', 'corpus:test-npm-test-pass-express'],
  pytest: ['corpus:test-pytest-fail-more-itertools', 'corpus:test-pytest-pass-more-itertools', 'corpus:test-pytest-fail-tb-short-more-itertools', 'fresh:pytest-fail', 'fresh:pytest-q-fail'],
  unittest: ['corpus:test-unittest-fail-more-itertools', 'corpus:test-make-test-unittest-v-more-itertools', 'fresh:unittest-fail'],
  'cargo-test': ['corpus:test-cargo-test-fail-rust-fnv', 'corpus:test-cargo-test-pass-rust-fnv', 'fresh:cargo-test-fail'],
  'go-test': ['corpus:test-go-test-fail-pflag', 'corpus:test-go-test-pass-pflag', 'corpus:test-go-test-v-pass-pflag', 'corpus:test-go-test-run-v-fail-pflag'],
  ctest: ['corpus:test-ctest-pass-cjson', 'corpus:test-ctest-fail-cjson', 'fresh:ctest-fail'],
  'node-test': ['fresh:node-test-fail', 'fresh:node-test-describe'],
  tsc: ['corpus:build-tsc-noemit-errors-path-to-regexp', 'corpus:build-npm-run-build-errors-path-to-regexp', 'fresh:tsc-errors'],
  eslint: ['corpus:build-npm-run-lint-errors-express', 'fresh:eslint-errors', 'fresh:eslint-errors-2'],
  'cargo-build': ['corpus:build-cargo-build-errors-rust-fnv', 'fresh:cargo-build-errors', 'fresh:cargo-build-warnings'],
  'go-build': ['corpus:build-go-build-errors-pflag', 'corpus:build-go-vet-printf-pflag'],
  'py-lint': ['corpus:build-flake8-more-itertools', 'corpus:build-mypy-more-itertools', 'corpus:build-make-werror-cjson', 'fresh:gcc-errors'],
  make: ['corpus:logs-cmake-build-progress-cjson', 'fresh:make-cmake'],
  'git-status': ['corpus:git-status-express', 'corpus:git-status-untracked-all-express', 'corpus:git-status-short-express', 'fresh:git-status'],
  'git-diff': ['corpus:git-diff-express', 'corpus:git-diff-head3-express', 'corpus:git-diff-ts-path-to-regexp', 'corpus:git-diff-stat-express', 'fresh:git-diff'],
  'git-log': ['corpus:git-log-default-path-to-regexp', 'corpus:git-log-n30-express', 'corpus:git-log-oneline50-express', 'corpus:git-log-file-cjson', 'fresh:git-log'],
  'git-show': ['corpus:git-show-code-path-to-regexp', 'corpus:git-show-express', 'fresh:git-show'],
  'git-blame': ['corpus:git-blame-express', 'corpus:git-blame-L-more-itertools', 'fresh:git-blame'],
  ls: ['corpus:fs-ls-la-express', 'fresh:ls-la-src', 'fresh:ls-la-repo'],
  find: ['corpus:fs-find-js-express', 'corpus:fs-find-ts-path-to-regexp', 'corpus:fs-find-yaml-k8s'],
  tree: ['corpus:fs-tree-L3-express', 'corpus:fs-tree-tests-cjson'],
  wc: ['corpus:fs-wc-l-express', 'corpus:fs-wc-l-go-pflag', 'fresh:wc-l'],
  search: ['corpus:search-grep-rn-flagset-pflag', 'corpus:search-rg-n-express', 'corpus:search-grep-rn-assert-tests-cjson', 'corpus:search-git-grep-express', 'corpus:search-rg-n-path-to-regexp'],
  pkg: ['corpus:build-pip-list-more-itertools', 'fresh:pip-list'],
};

const caseDir = (ref: string): string => (ref.startsWith('fresh:') ? join(FRESH, ref.slice(6)) : join(CORPUS, ref.slice(7)));
const ALL_REFS = Object.values(CLAIMS).flat();

/** The perturbations an agent's shell adds to the same bytes. */
const PERTURB: Readonly<Record<string, (text: string) => string>> = {
  colour: (text) => text.split('\n').map((line) => (line === '' ? line : `\x1b[1;31m${line}\x1b[0m`)).join('\n'),
  crlf: (text) => text.replace(/\n/g, '\r\n'),
  'leading warning': (text) => `warning: the 'default' profile is deprecated; use 'dev' (see mise.toml)\n${text}`,
};

describe('recognisers, by content alone', () => {
  for (const [filter, refs] of Object.entries(CLAIMS)) {
    it(`${filter} claims ${refs.length} real outputs`, () => {
      for (const ref of refs) expect(first(load(caseDir(ref))), ref).toBe(filter);
    });
  }

  for (const [name, perturb] of Object.entries(PERTURB)) {
    it(`still claims them with ${name}`, () => {
      for (const ref of ALL_REFS) {
        const output = load(caseDir(ref));
        const perturbed = { stdout: output.stdout === '' ? '' : perturb(output.stdout), stderr: output.stderr === '' || output.stdout !== '' ? output.stderr : perturb(output.stderr) };
        const expected = first(output);
        // A listing of paths or a table with a warning first is no longer one: declining is right, claiming another is not.
        const got = first(perturbed);
        if (name === 'leading warning' && got === null) continue;
        expect(got, `${ref} with ${name}`).toBe(expected);
      }
    });
  }

  it('on a cut output, claims the same or declines', () => {
    for (const ref of ALL_REFS) {
      const output = load(caseDir(ref));
      const cut = { stdout: output.stdout.slice(0, Math.floor(output.stdout.length * 0.6)), stderr: '' };
      const got = first(cut);
      // A cut test run may have printed only its build so far: the build view is as right as declining.
      // A cut report whose counts are gone is still its passing lines.
      const acceptable = [first(output), null, 'cargo-build', 'make', 'test-lines'];
      expect(acceptable, ref).toContain(got);
    }
  });

  it('keeps every failing test and error location visible, and stashes the raw bytes', () => {
    const failing = ALL_REFS.filter((ref) => load(caseDir(ref)).exitCode !== 0);
    expect(failing.length).toBeGreaterThanOrEqual(15);
    let viewed = 0;
    // Also under exit status 0: the status is the script's (`pytest || true`), or post_tool's "it succeeded".
    for (const output of failing.flatMap((ref) => [load(caseDir(ref)), { ...load(caseDir(ref)), exitCode: 0 }])) {
      const ref = `${output.stdout.slice(0, 40)}… exit ${output.exitCode}`;
      const view = recognisedView(output, DEFAULT_CONTEXT);
      if (view === null) continue;
      viewed++;
      const shown = stripAnsi(view.output);
      for (const test of failingTests(output.stdout, output.stderr)) expect(shown, `${ref}: ${test}`).toContain(test);
      for (const location of rawLocations(output.stdout, output.stderr)) expect(shows(shown, location), `${ref}: ${location.file}:${location.line}`).toBe(true);
      const raw = new Set(view.stash.map((entry) => Buffer.from(entry.bytes).toString('utf8')));
      if (view.stdout !== output.stdout) expect(raw.has(output.stdout), ref).toBe(true);
      if (view.stderr !== output.stderr) expect(raw.has(output.stderr), ref).toBe(true);
      expect(Buffer.byteLength(view.output)).toBeLessThan(Buffer.byteLength(output.stdout + output.stderr));
    }
    expect(viewed).toBeGreaterThanOrEqual(24);
  });
});

describe('the named filter', () => {
  it("keeps its view of every corpus output one tool printed (the evidence guard only acts on mixed output)", () => {
    let kept = 0;
    for (const id of readdirSync(CORPUS)) {
      const command = readFileSync(join(CORPUS, id, 'cmd.txt'), 'utf8').trim();
      const argv = argvForCase(command);
      const named = argv === null ? null : findFilter(argv);
      if (argv === null || named === null || /&&|;|\|/.test(command)) continue;
      const output = { ...load(join(CORPUS, id)), argv };
      const own = named.apply(output, DEFAULT_CONTEXT);
      if (own === null) continue;
      expect(namedView(output, DEFAULT_CONTEXT, named)?.output, id).toBe(own.output);
      kept++;
    }
    expect(kept).toBeGreaterThanOrEqual(50);
  });
});

describe('mixed output (a script that lints, builds, then tests)', () => {
  const both = (ref: string): string => {
    const output = load(caseDir(ref));
    return output.stdout + output.stderr;
  };
  const MIXED: readonly (readonly [string, string])[] = [
    ['fresh:tsc-errors', 'fresh:vitest-fail'],
    ['fresh:eslint-errors', 'fresh:pytest-fail'],
    ['fresh:cargo-build-errors', 'fresh:cargo-test-fail'],
    ['corpus:build-flake8-more-itertools', 'corpus:test-pytest-fail-more-itertools'],
    ['fresh:gcc-errors', 'corpus:test-ctest-fail-cjson'],
    ['corpus:build-npm-run-lint-errors-express', 'corpus:test-npm-test-fail-express'],
    ['corpus:build-tsc-noemit-errors-path-to-regexp', 'corpus:test-vitest-run-fail-path-to-regexp'],
  ];
  for (const [build, tests] of MIXED) {
    it(`${build} then ${tests}: every location and failing test of both stays visible`, () => {
      const text = both(build) + both(tests);
      const view = recognisedView({ argv: ['./scripts/ci.sh'], stdout: text, stderr: '', exitCode: 1 }, DEFAULT_CONTEXT);
      expect(view).not.toBeNull();
      const shown = stripAnsi(view?.output ?? '');
      for (const test of failingTests(text, '')) expect(shown, test).toContain(test);
      for (const location of rawLocations(text, '')) expect(shows(shown, location), `${location.file}:${location.line}`).toBe(true);
      expect(view?.stash.map((entry) => Buffer.from(entry.bytes).toString('utf8'))).toContain(text);
      expect(Buffer.byteLength(view?.output ?? '')).toBeLessThan(Buffer.byteLength(text));
    });
  }

  it('views the sections of pytest after ESLint on their own', () => {
    const text = both('fresh:eslint-errors') + both('fresh:pytest-fail');
    expect(recognisedView({ argv: ['make', 'ci'], stdout: text, stderr: '', exitCode: 1 }, DEFAULT_CONTEXT)?.filter).toBe('sections');
  });
});

/** Deterministic noise: a linear congruential generator, so a failure reproduces. */
function noise(seed: number, length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz     ABCDEFGHIJ0123456789:/.-_()[]{}|=+,;\'"\n\n\t';
  let state = seed;
  let text = '';
  for (let i = 0; i < length; i++) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    text += alphabet[state % alphabet.length];
  }
  return text;
}

describe('recognisers never claim what is not theirs', () => {
  it('random text', () => {
    for (let seed = 1; seed <= 300; seed++) expect(recognise(noise(seed, 200 + seed * 20), ''), `seed ${seed}`).toEqual([]);
  });

  it('prose and source files', () => {
    const files = [
      join(ROOT, 'README.md'),
      join(ROOT, 'docs', 'architecture.md'),
      ...readdirSync(join(ROOT, 'src', 'filters')).filter((n) => n.endsWith('.ts')).map((n) => join(ROOT, 'src', 'filters', n)),
      ...readdirSync(join(ROOT, 'src', 'compress')).filter((n) => n.endsWith('.ts')).map((n) => join(ROOT, 'src', 'compress', n)),
    ];
    for (const file of files) expect(recognise(readFileSync(file, 'utf8'), ''), file).toEqual([]);
  });

  it('the corpus file reads and data documents', () => {
    const reads = readdirSync(CORPUS).filter((id) => id.startsWith('read-') || id.startsWith('data-'));
    expect(reads.length).toBeGreaterThan(10);
    for (const id of reads) expect(recognise(load(join(CORPUS, id)).stdout, ''), id).toEqual([]);
  });

  it('empty and blank output', () => {
    expect(recognise('', '')).toEqual([]);
    expect(recognise('\n\n  \n', '')).toEqual([]);
  });
});
