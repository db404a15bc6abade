import { joinLines, lossy, makeView, splitLines, stripAnsi } from '../text.ts';
import type { CommandOutput, FilteredStream, StreamCandidate } from '../types.ts';
import { dropDependencyFrames, tidyBlankLines } from './frames.ts';

/** npm's `> pkg@1.0.0 test` / `> mocha …` banner lines: the agent typed the command, it does not need them. */
function dropNpmBanner(lines: readonly string[]): string[] {
  return lines.filter((line) => !/^> \S/.test(line));
}

function clean(text: string): string[] {
  return splitLines(stripAnsi(text)).map((l) => l.replace(/\s+$/, ''));
}

/** Vitest: passing runs -> the summary; failing runs -> failed tests with their messages, summary, and the
 * failure report (stderr) without dependency frames. */
export function vitestView(name: string, output: CommandOutput): StreamCandidate | null {
  const lines = clean(output.stdout);
  const summary = lines.filter((l) => /^\s*(?:Test Files|Tests|Duration)\s{2}/.test(l)).map((l) => l.trim().replace(/\s{2,}/g, ' ').replace(/^(Duration \S+) \(.*\)$/, '$1'));
  if (summary.length === 0) return null;
  const passed = output.exitCode === 0 && !summary.some((l) => /failed/.test(l));
  const stdout: FilteredStream = passed
    ? lossy(joinLines(summary))
    : lossy(joinLines(tidyBlankLines(dropDependencyFrames(dropNpmBanner(lines.filter((l) => keepVitestLine(l)))))));
  const stderr = output.stderr === '' ? null : lossy(joinLines(tidyBlankLines(dropDependencyFrames(clean(output.stderr)))));
  return makeView(name, output, stdout, stderr);
}

function keepVitestLine(line: string): boolean {
  const t = line.trim();
  return !/^(?:\u2713|\u221a|\u2193|RUN\s+v|Start at\s)/.test(t);
}

/** Jest: the `PASS file` lines and passing tests go; failures (● blocks), summary and snapshot lines stay. */
export function jestView(name: string, output: CommandOutput): StreamCandidate | null {
  const filter = (text: string): string[] => {
    const lines = dropNpmBanner(clean(text)).filter((l) => !/^\s*(?:PASS\s|\u2713|\u221a|\u25cb skipped)/.test(l));
    return tidyBlankLines(dropDependencyFrames(lines));
  };
  const summaryOf = (text: string): string[] => clean(text).filter((l) => /^(?:Test Suites|Tests|Snapshots|Time):\s/.test(l)).map((l) => l.replace(/\s{2,}/g, ' '));
  const counts = { stdout: summaryOf(output.stdout), stderr: summaryOf(output.stderr) };
  if (counts.stdout.length === 0 && counts.stderr.length === 0) return null;
  // The counts stay in the stream jest printed them to (stderr, unless the streams were merged).
  if (output.exitCode === 0) return makeView(name, output, lossy(joinLines(counts.stdout)), lossy(joinLines(counts.stderr)));
  return makeView(name, output, lossy(joinLines(filter(output.stdout))), lossy(joinLines(filter(output.stderr))));
}

/** Mocha (spec reporter): passing runs -> `N passing`/`pending`; failing runs -> the numbered failures with their
 * messages and project frames, and the counts. */
export function mochaView(name: string, output: CommandOutput): StreamCandidate | null {
  const lines = dropNpmBanner(clean(output.stdout));
  const at = lines.findIndex((l) => /^\s+\d+ passing \(/.test(l));
  if (at < 0) return null;
  const listing = lines.slice(0, at);
  const failingTitles = listing.filter((l) => /^\s+\d+\) /.test(l)).map((l) => l.trim());
  const report = tidyBlankLines(dropDependencyFrames(lines.slice(at))).map((l) => (/^\s+\d+ (?:passing|pending|failing)/.test(l) ? l.trim() : l));
  const stdout = output.exitCode === 0 && failingTitles.length === 0
    ? report.filter((l) => /^\d+ (?:passing|pending)/.test(l))
    : report.some((l) => /^\d+ failing/.test(l)) ? report : [...failingTitles, ...report];
  const stderr = output.stderr === '' ? null : lossy(joinLines(tidyBlankLines(dropDependencyFrames(clean(output.stderr)))));
  return makeView(name, output, lossy(joinLines(stdout)), stderr);
}

/** Bun's closing counts (` 12 pass`, ` 0 fail`, ` 3 skip`, ` 40 expect() calls`, snapshots) and `Ran N tests across M files.` */
const BUN_COUNT = /^\d+ (?:pass|fail|skip|todo|expect\(\) calls|snapshots?\b.*)$/;
export const BUN_RAN = /^Ran \d+ tests? across \d+ files?\./;

/** `bun test` (its report goes to stderr, the tests' own console output to stdout): passing runs -> the counts;
 * failing runs -> everything but the passing tests' `(pass)`/`✓` lines, dependency frames and long rules. */
export function bunTestView(name: string, output: CommandOutput): StreamCandidate | null {
  const all = clean(`${output.stdout}\n${output.stderr}`).map((l) => l.trim());
  if (!all.some((l) => BUN_RAN.test(l))) return null;
  const summary = all.filter((l) => BUN_COUNT.test(l) || BUN_RAN.test(l));
  if (output.exitCode === 0 && summary.includes('0 fail')) {
    // The counts go where bun printed them (stderr, unless the streams were merged); the other stream is console output.
    const counts = lossy(joinLines(summary));
    const onStderr = clean(output.stderr).some((l) => BUN_RAN.test(l.trim()));
    return onStderr ? makeView(name, output, lossy(''), counts) : makeView(name, output, counts, lossy(''));
  }
  const filter = (text: string): FilteredStream => lossy(joinLines(tidyBlankLines(dropDependencyFrames(clean(text).filter((l) => !/^(?:\(pass\)|\u2713) /.test(l))))));
  return makeView(name, output, filter(output.stdout), filter(output.stderr));
}
