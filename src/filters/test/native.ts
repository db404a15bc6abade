import { joinLines, lossy, makeView, splitLines, stripAnsi } from '../text.ts';
import type { CommandOutput, StreamCandidate } from '../types.ts';
import { rustDiagnostics } from '../build/native.ts';
import { tidyBlankLines } from './frames.ts';

/** go test: passing tests (and the log lines they printed under -v) go; failing tests keep their output; package
 * results stay, passing packages folded into one `ok` line. */
export function goTestView(name: string, output: CommandOutput): StreamCandidate | null {
  const lines = splitLines(stripAnsi(output.stdout));
  if (!lines.some((l) => /^(?:ok|FAIL|---|\?)\s/.test(l) || l === 'PASS' || l === 'FAIL')) return null;
  const result: string[] = [];
  const okPackages: string[] = [];
  let buffer: string[] = [];
  let passedTests = 0;
  for (const line of lines) {
    if (/^=== (?:RUN|PAUSE|CONT|NAME)\s/.test(line)) {
      if (/^=== RUN/.test(line) && !line.includes('/')) {
        result.push(...buffer);
        buffer = [];
      }
      continue;
    }
    if (/^\s*--- PASS: /.test(line)) {
      passedTests++;
      buffer = [];
      continue;
    }
    const ok = /^ok\s+(\S+)/.exec(line);
    if (ok !== null) {
      okPackages.push(ok[1] ?? '');
      continue;
    }
    if (line === 'PASS' || /^\?\s+\S+\s+\[no test files\]$/.test(line)) continue;
    if (/^\s*--- (?:FAIL|SKIP): /.test(line)) {
      result.push(...buffer, line);
      buffer = [];
      continue;
    }
    buffer.push(line);
  }
  result.push(...buffer);
  if (passedTests > 0) result.push(`${passedTests} tests passed`);
  if (okPackages.length > 0) {
    result.push(okPackages.length <= 5 ? `ok ${okPackages.join(' ')}` : `ok ${okPackages.length} packages`);
  }
  return makeView(name, output, lossy(joinLines(result)), null);
}

const CARGO_PROGRESS = /^\s*(?:Compiling|Checking|Finished|Running|Doc-tests|Fresh|Downloaded|Downloading|Blocking|Updating|Locking|Adding)\s/;

/** A backtrace frame outside the project (std, core, the test harness, registry crates). */
function isRustLibraryFrame(symbol: string, location: string): boolean {
  // A frame located in the project (`at ./tests/test.rs:10:17`) is the project's, even when its crate is named
  // `test` (cargo names an integration test binary after its file).
  if (/^\s+at \.{0,2}\//.test(location) && !/\/rustc\/|\/\.cargo\/registry\//.test(location)) return false;
  return /^\s*\d+: (?:std::|core::|alloc::|test::|__rustc|<.*as core::|rust_begin_unwind)/.test(symbol) ||
    /at \/rustc\/|\/\.cargo\/registry\//.test(location);
}

/** cargo test: `test … ok` lines and cargo's progress go; panics keep their message and project frames; every
 * `test result:` line stays (a passing run keeps only those). */
export function cargoTestView(name: string, output: CommandOutput): StreamCandidate | null {
  const lines = splitLines(stripAnsi(output.stdout));
  const results = lines.filter((l) => l.startsWith('test result: '));
  if (results.length === 0) return null;
  const stderr = lossy(joinLines(rustDiagnostics(splitLines(stripAnsi(output.stderr))).filter((l) => !CARGO_PROGRESS.test(l))));
  if (output.exitCode === 0 && results.every((l) => l.startsWith('test result: ok.'))) {
    return makeView(name, output, lossy(`${sumCargoResults(results)}\n`), stderr);
  }
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (/^test .* \.\.\. ok$/.test(line) || /^running \d+ tests?$/.test(line) || line.startsWith('note: Some details are omitted')) continue;
    // The hint to set RUST_BACKTRACE, and the result of a suite that has no test at all (a crate's empty unit-test
    // or doc-test harness), say nothing about the failure.
    if (line.startsWith('note: run with `RUST_BACKTRACE=1`') || /^test result: ok\. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out;/.test(line)) continue;
    if (/^\s*\d+: /.test(line)) {
      const location = lines[i + 1] ?? '';
      const hasLocation = /^\s+at /.test(location);
      if (isRustLibraryFrame(line, hasLocation ? location : '')) {
        if (hasLocation) i++;
        continue;
      }
    }
    kept.push(line);
  }
  return makeView(name, output, lossy(joinLines(tidyBlankLines(kept))), stderr);
}

/** ctest: per-test start/pass lines, Unity `:PASS` lines and build progress go; failing tests with their output,
 * the percentage line and the list of failed tests stay. */
export function ctestView(name: string, output: CommandOutput): StreamCandidate | null {
  const lines = splitLines(stripAnsi(output.stdout));
  const summary = lines.findIndex((l) => /^\d+% tests passed, \d+ tests? failed out of \d+/.test(l));
  if (summary < 0) return null;
  let buildSteps = 0;
  const kept: string[] = [];
  for (const line of lines) {
    if (/^\[\s*\d+%\] (?:Building|Linking|Built target|Scanning|Generating)/.test(line)) {
      buildSteps++;
      continue;
    }
    if (/^\s+Start\s+\d+: /.test(line) || /^\s*\d+\/\d+ Test\s+#\d+: .* Passed\s/.test(line)) continue;
    if (/:PASS$/.test(line) || /^Internal ctest changing into directory/.test(line) || /^Test project /.test(line)) continue;
    kept.push(line);
  }
  if (buildSteps > 0) kept.unshift(`[build: ${buildSteps} steps]`);
  return makeView(name, output, lossy(joinLines(tidyBlankLines(kept))), null);
}

/** `test result: ok. 2 passed; 0 failed; …` lines of every suite summed into one line. */
function sumCargoResults(results: readonly string[]): string {
  const totals = new Map<string, number>();
  for (const line of results) {
    for (const m of line.matchAll(/(\d+) (passed|failed|ignored|measured|filtered out)/g)) {
      totals.set(m[2] ?? '', (totals.get(m[2] ?? '') ?? 0) + Number(m[1]));
    }
  }
  const counts = [...totals].filter(([kind, n]) => n > 0 || kind === 'failed').map(([kind, n]) => `${n} ${kind}`);
  return `test result: ok. ${counts.join('; ')} (${results.length} suites)`;
}
