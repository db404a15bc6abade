/**
 * Which filter understands an output, told from the output itself: `mise run test`, `./scripts/ci.sh`, `ssh host
 * 'cargo test'` and `timeout 3 ./bin/x` print test reports, diagnostics, git output, listings and tables their
 * command names do not announce. Each recogniser looks at a bounded, normalised sample (no ANSI colour, no CR before
 * a newline, at most SAMPLE_LINES lines of at most LINE_CHARS characters from the first SAMPLE_CHARS) with anchored
 * patterns that cannot backtrack far, and either names the argv its filter should view the output as (`['cargo',
 * 'test']`) or declines (null) when it is not sure. The filter then still parses the real bytes and may decline too.
 *
 * JSON, JSON Lines, CSV/TSV, logs and `\r`-redrawn progress need no recogniser here: the content policy
 * (src/compress/policy.ts, classify.ts) already routes any program's output by what it is.
 */
import { cargoBuildFilter, eslintFilter, goBuildFilter, makeFilter, markdownlintFilter, pyLintFilter, shellcheckFilter, tscFilter } from './build/index.ts';
import { MARKDOWNLINT } from './build/lint.ts';
import { RUFF_ARROW, RUFF_HEADER } from './build/ruff.ts';
import { SHELLCHECK_GCC, SHELLCHECK_HEADER, SHELLCHECK_MARKER } from './build/shellcheck.ts';
import { containerFilter } from './container/index.ts';
import { findFilter, treeFilter } from './fs/find.ts';
import { duFilter, wcFilter } from './fs/misc.ts';
import { lsFilter } from './fs/ls.ts';
import { gitDiffFilter } from './git/diff.ts';
import { gitBlameFilter } from './git/misc.ts';
import { gitLogFilter, gitShowFilter } from './git/log.ts';
import { gitStatusFilter } from './git/status.ts';
import { pkgFilter } from './pkg/index.ts';
import { searchFilter } from './search/index.ts';
import {
  cargoTestFilter,
  ctestFilter,
  goTestFilter,
  jestFilter,
  mochaFilter,
  nodeTestFilter,
  pytestFilter,
  scriptTestFilter,
  unittestFilter,
  vitestFilter,
} from './test/index.ts';
import { PASSING_TEST_LINE, passingLinesFilter } from './test/passing-lines.ts';
import type { ReduceContext } from '../reduce/context.ts';
import { lossy, makeView } from './text.ts';
import type { CommandFilter, CommandOutput, StreamCandidate } from './types.ts';

const SAMPLE_CHARS = 32 * 1024;
const SAMPLE_LINES = 400;
/** Longer lines are cut for the tests: no recognised line needs more, and no pattern then scans a megabyte. */
const LINE_CHARS = 400;

/** The lines a recogniser looks at: the head and the tail (summaries come last), normalised. */
export interface OutputSample {
  readonly head: readonly string[];
  readonly tail: readonly string[];
  /** Non-blank lines of the head. */
  readonly nonBlank: readonly string[];
}

/** The line Claude Code puts where it cut a long Bash result: not the program's, so no recogniser counts it. */
const CLIENT_CUT = /^\.\.\. \[\d+ lines truncated\] \.\.\.$/;
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]/g;

/** The first (or, `last`, the final) SAMPLE_LINES lines; `cutStart`: the text's first line is partial and dropped. */
function sampleLines(text: string, last = false, cutStart = false): string[] {
  const plain = text.includes('\x1b') ? text.replace(ANSI, '') : text;
  const lines = last ? plain.split('\n').slice(cutStart ? 1 : 0).slice(-SAMPLE_LINES) : plain.split('\n', SAMPLE_LINES);
  return lines.map((line) => {
    const bare = line.endsWith('\r') ? line.slice(0, -1) : line;
    return bare.length > LINE_CHARS ? bare.slice(0, LINE_CHARS) : bare;
  });
}

/** stdout then stderr, as a terminal would show them merged; a failing run's report is often on stderr. */
export function outputSample(stdout: string, stderr: string): OutputSample {
  const joined = stderr === '' ? stdout : stdout === '' ? stderr : `${stdout}\n${stderr}`;
  const head = sampleLines(joined.length > SAMPLE_CHARS ? joined.slice(0, SAMPLE_CHARS) : joined);
  const cut = joined.length > SAMPLE_CHARS;
  const tail = cut || head.length === SAMPLE_LINES ? sampleLines(cut ? joined.slice(-SAMPLE_CHARS) : joined, true, cut) : [];
  return { head, tail, nonBlank: head.filter((line) => line.trim() !== '' && !CLIENT_CUT.test(line)) };
}

export interface Recogniser {
  readonly filter: CommandFilter;
  /** The lines that say what went wrong (a diagnostic, a failing test's name): another filter's view of the
   * same output must keep each of them, verbatim, or the output is mixed and viewed section by section. */
  readonly evidence?: RegExp;
  /** A line that says the run failed, for a test report: the exit status is the script's, not the runner's
   * (`pytest || true`, a script without `set -e`), and a runner's view keeps the failures only of a failed run. */
  readonly failing?: RegExp;
  /** The argv the filter views the output as, or null: not sure. */
  recognise(sample: OutputSample): readonly string[] | null;
}

const anyLine = (sample: OutputSample, pattern: RegExp): boolean => sample.head.some((l) => pattern.test(l)) || sample.tail.some((l) => pattern.test(l));
const countLines = (lines: readonly string[], pattern: RegExp): number => lines.reduce((n, l) => (pattern.test(l) ? n + 1 : n), 0);
const share = (sample: OutputSample, pattern: RegExp): number => (sample.nonBlank.length === 0 ? 0 : countLines(sample.nonBlank, pattern) / sample.nonBlank.length);
const when = (argv: readonly string[], test: (sample: OutputSample) => boolean) => (sample: OutputSample) => (test(sample) ? argv : null);

/** Passing-test lines a report without counts needs before it is called one. */
const MIN_PASSING = 10;

/** A test runner's summary: the one line each runner always prints at the end. */
const TEST_REPORTS: readonly Recogniser[] = [
  { filter: vitestFilter, failing: /^\s*Tests? +.*\d+ failed|^ FAIL {1,2}\S/, evidence: /^ FAIL {1,2}\S/, recognise: when(['vitest', 'run'], (s) => anyLine(s, /^\s*Test Files {2}/)) },
  { filter: jestFilter, failing: /^Tests: +.*\d+ failed/, evidence: /^ +\u25cf \S.* \u203a /, recognise: when(['jest'], (s) => anyLine(s, /^Tests: +\d.* \d+ total/)) },
  // bun test: the script filter recognises bun's own summary.
  { filter: scriptTestFilter, failing: /^ *[1-9]\d* fail$/, recognise: when(['bun', 'test'], (s) => anyLine(s, /^Ran \d+ tests? across \d+ files?\./)) },
  { filter: mochaFilter, failing: /^ +\d+ failing$/, evidence: /^ +\d+\) \S/, recognise: when(['mocha'], (s) => anyLine(s, /^ +\d+ passing \(\d/)) },
  { filter: pytestFilter, failing: /^=+ .*\b\d+ (?:failed|errors?)\b.* =+$|^\d+ (?:failed|errors?)\b.* in \d|^(?:FAILED|ERROR) \S+::/, evidence: /^(?:FAILED|ERROR) \S+::/, recognise: when(['pytest'], (s) => anyLine(s, /^=+ test session starts =+$/) || anyLine(s, /^=+ (?:\d+ (?:passed|failed|errors?|skipped|xfailed|deselected|warnings?)[, ]*)+.* in \d[\d.]*s.* =+$/) || (anyLine(s, /^\d+ (?:failed|passed|errors?)(?:, \d+ [\w ]+)* in \d[\d.]*s(?: \(.*\))?$/) && anyLine(s, /^(?:FAILED|ERROR|PASSED) \S+::/))) },
  { filter: unittestFilter, failing: /^FAILED \(/, evidence: /^(?:FAIL|ERROR): \S/, recognise: when(['python3', '-m', 'unittest'], (s) => anyLine(s, /^Ran \d+ tests? in \d/) && anyLine(s, /^(?:OK|FAILED)\b/)) },
  { filter: cargoTestFilter, failing: /^test result: FAILED\./, evidence: /^---- \S+ stdout ----$/, recognise: when(['cargo', 'test'], (s) => anyLine(s, /^test result: (?:ok|FAILED)\. \d+ passed/)) },
  { filter: ctestFilter, failing: /^\d+% tests passed, [1-9]\d* tests? failed/, evidence: /\*\*\*Failed|^The following tests FAILED:$/, recognise: when(['ctest'], (s) => anyLine(s, /^\d+% tests passed, \d+ tests? failed out of \d+/)) },
  { filter: goTestFilter, failing: /^--- FAIL: |^FAIL\s/, evidence: /^--- FAIL: |^FAIL\s/, recognise: when(['go', 'test', './...'], (s) => anyLine(s, /^(?:ok|FAIL|\?) +\t?\S+\t/) || (anyLine(s, /^--- (?:FAIL|PASS): /) && anyLine(s, /^(?:PASS|FAIL)$/))) },
  { filter: nodeTestFilter, failing: /^# fail [1-9]/, evidence: /^not ok \d+ /, recognise: when(['node', '--test'], (s) => anyLine(s, /^TAP version \d+$/) && anyLine(s, /^# (?:pass|fail) \d+$/)) },
  // Last: a report whose counts are missing (cut by `| head`, or still running). Mostly lines that each say one test
  // passed; the runners' own views, asked first, need the counts.
  { filter: passingLinesFilter, recognise: when(['test-lines'], (s) => countLines(s.nonBlank, PASSING_TEST_LINE) >= MIN_PASSING && share(s, PASSING_TEST_LINE) >= 0.5) },
];

const TSC = /^\S.*\(\d+,\d+\): error TS\d+: |^\S.*:\d+:\d+ - error TS\d+: /;
const ESLINT_ROW = /^ +\d+:\d+ +(?:error|warning) +\S/;
const ESLINT_FILE = /^(?:\/|[A-Za-z]:\\|\.{0,2}\/?[\w.@-]+\/)\S*$/;
const RUST_HEADER = /^(?:error|warning)(?:\[E\d{4}\])?: \S/;
const RUST_ARROW = /^ *--> \S+:\d+:\d+$/;
const CARGO_PROGRESS = /^ {2,}(?:Compiling|Checking|Finished) \S/;
/** `path:line:col: CODE message` (flake8, ruff, pylint), `path:line[:col]: error|warning|note: message` (mypy, gcc,
 * clang), `file.go:line:col: message` (go vet/build). */
const LINE_DIAGNOSTIC = /^[^\s:][^:]*:\d+:(?:\d+:)? (?:[A-Z]+\d+:? |(?:error|warning|note|fatal error): )\S|^[^\s:][^:]*\.go:\d+:\d+: \S/;
const MAKE_CHATTER = /^make(?:\[\d+\])?: (?:Entering|Leaving) directory |^\[ *\d+%\] (?:Building|Linking|Built target) /;

const DIAGNOSTICS: readonly Recogniser[] = [
  { filter: tscFilter, evidence: TSC, recognise: when(['tsc', '--noEmit'], (s) => anyLine(s, TSC)) },
  { filter: eslintFilter, evidence: ESLINT_ROW, recognise: when(['eslint', '.'], (s) => countLines(s.nonBlank, ESLINT_ROW) >= 1 && countLines(s.nonBlank, ESLINT_FILE) >= 1 && anyLine(s, /^\u2716 \d+ problems? \(/)) },
  // Before the line linters: shellcheck's `-f gcc` lines are gcc's, with the SC code that names them.
  {
    filter: shellcheckFilter,
    evidence: new RegExp(`${SHELLCHECK_MARKER.source}|${SHELLCHECK_GCC.source}`),
    recognise: when(['shellcheck'], (s) => (anyLine(s, SHELLCHECK_HEADER) && anyLine(s, SHELLCHECK_MARKER)) || anyLine(s, SHELLCHECK_GCC)),
  },
  // markdownlint's `file:line[:col] [error] MD013/line-length …` lines are not LINE_DIAGNOSTIC's: the rule's name after
  // its number is what makes one sure.
  { filter: markdownlintFilter, evidence: MARKDOWNLINT, recognise: when(['markdownlint'], (s) => countLines(s.nonBlank, MARKDOWNLINT) >= 1) },
  { filter: cargoBuildFilter, evidence: RUST_HEADER, recognise: when(['cargo', 'build'], (s) => (countLines(s.head, RUST_HEADER) >= 1 && countLines(s.head, RUST_ARROW) >= 1) || countLines(s.head, CARGO_PROGRESS) >= 2) },
  { filter: goBuildFilter, evidence: /^[^\s:][^:]*\.go:\d+:\d+: \S/, recognise: when(['go', 'vet', './...'], (s) => countLines(s.nonBlank, /^[^\s:][^:]*\.go:\d+:\d+: \S/) >= 2) },
  { filter: pyLintFilter, evidence: LINE_DIAGNOSTIC, recognise: when(['ruff', 'check'], (s) => countLines(s.nonBlank, LINE_DIAGNOSTIC) >= 2) },
  // Ruff's full format: a `CODE message` header with its ` --> path:line:col` on the next line.
  { filter: pyLintFilter, recognise: when(['ruff', 'check'], (s) => s.head.some((l, i) => RUFF_HEADER.test(l) && RUFF_ARROW.test(s.head[i + 1] ?? ''))) },
  { filter: makeFilter, recognise: when(['make'], (s) => countLines(s.head, MAKE_CHATTER) >= 2) },
];

const LS_LONG = /^[-dlcbpsD][rwxsStT-]{9}[.@+]? +\d+ /;
/** One path per line: no blanks inside, at least one directory separator, no `path:line:` prefix. */
const PATH_LINE = /^(?:\.{1,2}\/|\/|[\w@.+-]+\/)[\w@.+\-/]*$/;
const SEARCH_RECORD = /^[^\s:][^:]{0,300}:\d+[:-]/;
// `2024-01-02T13:45:…` and `git blame`'s `(Author 2015-06-18 23:00:20` also split as `x:digits:`.
const TIME_PREFIX = /^[^:]{0,300}[T ]\d{1,2}:\d\d:/;
const BLAME_LINE = /^\^?[0-9a-f]{7,40} (?:\S+ +)?\(.{1,80} \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4} +\d+\) /;
const TABLE_HEADER = /^[A-Z][A-Z0-9%()_./-]*(?: [A-Z][A-Z0-9%()_./-]*)?(?: {2,}[A-Z][A-Z0-9%()_./-]*(?: [A-Z][A-Z0-9%()_./-]*)?){2,} *$/;

const GIT_AND_LISTINGS: readonly Recogniser[] = [
  {
    filter: gitStatusFilter,
    recognise: when(['git', 'status'], (s) => /^(?:On branch \S|HEAD detached (?:at|from) \S)/.test(s.nonBlank[0] ?? '') && anyLine(s, /^(?:Changes (?:not staged for commit|to be committed):|Untracked files:|nothing to commit|nothing added to commit|no changes added to commit|Your branch is )/)),
  },
  { filter: gitDiffFilter, recognise: when(['git', 'diff'], (s) => /^diff --git a\/\S/.test(s.nonBlank[0] ?? '') && anyLine(s, /^@@ -\d/)) },
  {
    filter: gitShowFilter,
    recognise: when(['git', 'show'], (s) => /^commit [0-9a-f]{7,40}\b/.test(s.nonBlank[0] ?? '') && /^(?:Author|Merge): /.test(s.nonBlank[1] ?? '') && anyLine(s, /^diff --git a\//)),
  },
  { filter: gitBlameFilter, recognise: when(['git', 'blame', ''], (s) => s.nonBlank.length >= 3 && share(s, BLAME_LINE) >= 0.9) },
  { filter: gitLogFilter, recognise: when(['git', 'log', '--oneline'], (s) => s.nonBlank.length >= 5 && share(s, /^[0-9a-f]{7,12} \S/) === 1) },
  { filter: gitStatusFilter, recognise: when(['git', 'status', '-sb'], (s) => /^## \S/.test(s.nonBlank[0] ?? '') && s.nonBlank.length >= 3 && s.nonBlank.slice(1).every((l) => /^[ MADRCU?!]{2} \S/.test(l))) },
  { filter: gitDiffFilter, recognise: when(['git', 'diff', '--stat'], (s) => anyLine(s, /^ \d+ files? changed(?:, \d+ insertions?\(\+\))?(?:, \d+ deletions?\(-\))?$/) && countLines(s.nonBlank, /^ \S.* +\| +(?:\d+ [+-]*|Bin )/) >= 3) },
  { filter: gitLogFilter, recognise: when(['git', 'log'], (s) => /^commit [0-9a-f]{7,40}\b/.test(s.nonBlank[0] ?? '') && /^(?:Author|Merge): /.test(s.nonBlank[1] ?? '')) },
  { filter: lsFilter, recognise: when(['ls', '-la'], (s) => /^total \d/.test(s.nonBlank[0] ?? '') && s.nonBlank.length >= 4 && share(s, LS_LONG) >= 0.8) },
  { filter: findFilter, recognise: when(['fd'], (s) => s.nonBlank.length >= 5 && share(s, PATH_LINE) === 1) },
  { filter: treeFilter, recognise: when(['tree'], (s) => s.nonBlank.length >= 5 && share(s, /^(?:[\u2502|][ \u00a0]{3}|[ \u00a0]{4})*[\u251c\u2514`|][\u2500-]{2}[ \u00a0]\S/) >= 0.7 && anyLine(s, /^\d+ director(?:y|ies)(?:, \d+ files?)?$/)) },
  { filter: wcFilter, recognise: when(['wc', '-l'], (s) => s.nonBlank.length >= 4 && share(s, /^ *\d+ \S+$/) === 1 && / total$/.test(s.nonBlank[s.nonBlank.length - 1] ?? '')) },
  { filter: duFilter, recognise: when(['du', '-sh'], (s) => s.nonBlank.length >= 5 && share(s, /^\d[\d.,]*[KMGTP]?\t\S/) === 1) },
  { filter: searchFilter, recognise: when(['grep', '-rn', ''], (s) => s.nonBlank.length >= 3 && share(s, SEARCH_RECORD) >= 0.9 && share(s, LINE_DIAGNOSTIC) < 0.1 && share(s, TIME_PREFIX) < 0.1) },
  { filter: containerFilter, recognise: when(['docker', 'ps'], (s) => s.nonBlank.length >= 3 && TABLE_HEADER.test(s.nonBlank[0] ?? '')) },
  { filter: pkgFilter, recognise: when(['pip', 'list'], (s) => /^Package +Version/.test(s.nonBlank[0] ?? '') && /^-+ +-+/.test(s.nonBlank[1] ?? '') && s.nonBlank.length >= 5) },
  { filter: pkgFilter, recognise: when(['pip', 'install'], (s) => countLines(s.head, /^(?:Requirement already satisfied|Collecting|Using cached|Downloading) \S/) >= 3) },
  { filter: pkgFilter, recognise: when(['npm', 'install'], (s) => anyLine(s, /^(?:added|removed|changed|up to date)(?: \d+ packages?)?.* in \d/) && countLines(s.head, /^npm (?:warn|WARN) /) + countLines(s.head, /^\d+ packages? (?:is|are) looking for funding$/) >= 1) },
];

/** Every recogniser, in the order they are asked when the command says nothing: reports and diagnostics (whose
 * lines also look like search records and paths) before git, listings, search and tables. */
export const RECOGNISERS: readonly Recogniser[] = [...TEST_REPORTS, ...DIAGNOSTICS, ...GIT_AND_LISTINGS];

/**
 * What the output is, as the argv of each filter that recognises it, best first. `named` (the filter the command's
 * name matched, if any) only orders: its own recognisers are asked first, since a name is a good hint and a poor
 * proof.
 */
export interface Recognised {
  readonly filter: CommandFilter;
  readonly argv: readonly string[];
  readonly evidence: RegExp | null;
  /** The report says the run failed (its `failing` line is in the sample). */
  readonly failed: boolean;
}

export function recognise(stdout: string, stderr: string, named: CommandFilter | null = null): Recognised[] {
  if (stdout === '' && stderr === '') return [];
  const sample = outputSample(stdout, stderr);
  if (sample.nonBlank.length === 0) return [];
  const ordered = named === null ? RECOGNISERS : [...RECOGNISERS.filter((r) => r.filter.name === named.name), ...RECOGNISERS.filter((r) => r.filter.name !== named.name)];
  const found: Recognised[] = [];
  for (const recogniser of ordered) {
    const argv = recogniser.recognise(sample);
    if (argv === null) continue;
    const failed = recogniser.failing !== undefined && anyLine(sample, recogniser.failing);
    found.push({ filter: recogniser.filter, argv, evidence: recogniser.evidence ?? null, failed });
  }
  return found;
}

/** How many recognised filters are asked for a view: the first that does not decline wins. */
const MAX_TRIED = 3;

/**
 * The view of the filter that recognises the output (asked as the argv it named), or null when none recognises it
 * or every one asked declines. A filter that throws on output it was not written for declines. When the output is
 * also recognised as something else (`npm run ci`: lint, then tests) and the view dropped a line that other
 * recogniser names as what went wrong, the output is viewed section by section instead, or not at all.
 */
export function recognisedView(output: CommandOutput, context: ReduceContext, named: CommandFilter | null = null, sections = true): StreamCandidate | null {
  const claims = recognise(output.stdout, output.stderr, named);
  let tried = 0;
  for (const claim of claims) {
    if (tried++ >= MAX_TRIED) return null;
    let view: StreamCandidate | null = null;
    try {
      // A report that says it failed is viewed as a failed run whatever the script's exit status.
      const exitCode = output.exitCode === 0 && claim.failed ? 1 : output.exitCode;
      view = claim.filter.apply({ ...output, argv: claim.argv, exitCode }, context);
    } catch {
      // Declined: the next recogniser is asked.
    }
    if (view === null) continue;
    const others = claims.filter((other) => other.filter !== claim.filter && other.evidence !== null);
    if (others.length === 0 || keepsEvidence(output, view, others)) return view;
    return sections ? sectionedView(output, context) : null;
  }
  return null;
}

/**
 * The view of the filter the command's name matched, unless that view drops what another recogniser calls evidence
 * (`npm test` whose script lints first): then the sections are viewed on their own, or nothing is.
 */
export function namedView(output: CommandOutput, context: ReduceContext, named: CommandFilter): StreamCandidate | null {
  const view = named.apply(output, context);
  if (view === null) return null;
  const others = recognise(output.stdout, output.stderr, named).filter((claim) => claim.filter !== named && claim.evidence !== null);
  return others.length === 0 || keepsEvidence(output, view, others) ? view : sectionedView(output, context);
}

function normalisedLines(text: string): string[] {
  const plain = text.includes('\x1b') ? text.replace(ANSI, '') : text;
  return plain.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/**
 * Whether every line of the output that another recogniser calls evidence is still in the view: verbatim, or, as
 * the grouped diagnostic views render it, its file with its line number (`a.ts (3):` then `2:3 TS2322 …`), or for a
 * line without a file (ESLint's `  2:36  error …` rows, a failing test's line) its location or its longest word.
 */
function keepsEvidence(output: CommandOutput, view: StreamCandidate, others: readonly Recognised[]): boolean {
  const shownLines = normalisedLines(view.output);
  const shown = new Set(shownLines.map((line) => line.trim()));
  const text = shownLines.join('\n');
  const original = normalisedLines(`${output.stdout}\n${output.stderr}`);
  return others.every(({ evidence }) => original.every((line) => evidence === null || !evidence.test(line) || shown.has(line.trim()) || keyShown(line, shownLines, text)));
}

const FILE_LOCATION = /^\s*([^\s:(]+\.[A-Za-z0-9]{1,5})(?::|\()(\d+)/;
const BARE_LOCATION = /^\s*(\d+:\d+)\s/;

function keyShown(line: string, shownLines: readonly string[], text: string): boolean {
  const located = FILE_LOCATION.exec(line);
  if (located !== null) {
    const [, file = '', number = ''] = located;
    const at = new RegExp(`(?:^|[\\s,(:])${number}(?:[:,)\\s]|$)`);
    let underFile = false;
    for (const shown of shownLines) {
      if (shown.includes(file)) {
        if (at.test(shown.slice(shown.indexOf(file) + file.length))) return true;
        underFile = true;
      } else if (underFile && at.test(shown)) return true;
    }
    return false;
  }
  const bare = BARE_LOCATION.exec(line);
  if (bare !== null) return text.includes(bare[1] ?? '');
  const longest = line.trim().split(/\s+/).reduce((a, b) => (b.length > a.length ? b : a), '');
  return longest.length >= 6 && text.includes(longest);
}

/**
 * Where a new section of a script's output starts: npm/pnpm/yarn's `> pkg@1.0.0 lint` header, mise's `[task] $ cmd`,
 * make's `make[1]: Entering directory` aside, the first line of a test runner's report.
 */
const SECTION_START = /^> \S+@\S* \S|^\[[\w:./-]+\] \$ \S|^=+ test session starts =+$|^ RUN {1,2}v\d|^running \d+ tests?$|^TAP version \d+$|^(?:PASS|FAIL) \S+\.(?:[jt]sx?|[cm][jt]s)\b/;
const MAX_SECTIONS = 16;
const RETRIEVAL_LINE = /\n?\[tokenless retrieve \d+\]\n?$/;

/** stdout split where sections start, each viewed on its own; one retrieval line for the whole stream. */
function sectionedView(output: CommandOutput, context: ReduceContext): StreamCandidate | null {
  const lines = output.stdout.split('\n');
  const starts: number[] = [0];
  for (let i = 1; i < lines.length && starts.length < MAX_SECTIONS; i++) {
    const line = lines[i] ?? '';
    if (SECTION_START.test(line.includes('\x1b') ? line.replace(ANSI, '') : line)) starts.push(i);
  }
  if (starts.length < 2) return null;
  const parts: string[] = [];
  let viewed = 0;
  for (let k = 0; k < starts.length; k++) {
    const end = k + 1 < starts.length ? (starts[k + 1] as number) : lines.length;
    const last = end === lines.length;
    const text = lines.slice(starts[k], end).join('\n') + (last ? '' : '\n');
    const view = recognisedView({ ...output, stdout: text, stderr: '' }, context, null, false);
    // A view whose markers name parts of the section (inline `<<tokenless:…>>`) would point at entries this
    // candidate does not stash: that section is shown raw.
    if (view === null || view.stash.length !== 1 || view.stdout.includes('<<tokenless:')) {
      parts.push(text);
      continue;
    }
    viewed++;
    const shown = view.stdout.replace(RETRIEVAL_LINE, '');
    parts.push(shown === '' || shown.endsWith('\n') || last ? shown : `${shown}\n`);
  }
  if (viewed === 0) return null;
  return makeView('sections', output, lossy(parts.join('')), null);
}
