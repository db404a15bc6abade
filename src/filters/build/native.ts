import { joinLines, lossy, makeView, splitLines, stripAnsi } from '../text.ts';
import type { CommandOutput, StreamCandidate } from '../types.ts';

const CARGO_PROGRESS = /^\s*(?:Compiling|Checking|Finished|Fresh|Downloaded|Downloading|Blocking|Updating|Locking|Adding|Documenting)\s/;

/** cargo build/check/clippy: progress lines and rustc's boilerplate go; every diagnostic block (message, location,
 * code frame with carets, notes, help) stays. */
export function cargoBuildView(name: string, output: CommandOutput): StreamCandidate | null {
  return makeView(name, output, null, lossy(joinLines(rustDiagnostics(splitLines(stripAnsi(output.stderr))))));
}

/** rustc/clippy boilerplate that repeats in every diagnostic and locates nothing: empty gutter lines (`   |`), the
 * link to the lint's documentation, and the closing `rustc --explain` hint. Messages, locations, code frames with
 * their carets, notes and help suggestions stay. */
const RUST_BOILERPLATE = /^\s*\|$|^\s*= help: for further information visit https?:\/\/\S+$|^For more information about (?:this|an) error, try `rustc --explain E\d+`\.$|^Some errors have detailed explanations: /;

export function rustDiagnostics(lines: readonly string[]): string[] {
  return lines.filter((l) => !CARGO_PROGRESS.test(l) && !RUST_BOILERPLATE.test(l));
}

const PROGRESS = /^\[\s*\d+%\] (?:Building|Linking|Built target|Scanning|Generating|Copying|Installing)/;
const COMPILER_COMMAND = /^\s*(?:\S*\/)?(?:gcc|g\+\+|cc|c\+\+|clang|clang\+\+|ar|ld|ln|ranlib|install|mkdir|rm|cp)\s/;
const KEEP = /error|warning|note:|undefined reference|\*\*\*|Error \d|^\s+\d+ \||^\s+\|/i;

/** make, cmake --build, ninja: progress lines and echoed compiler commands are counted, not shown; diagnostics,
 * `make: ***` failures and anything unrecognised stay. */
export function buildLogView(name: string, output: CommandOutput): StreamCandidate | null {
  let foldedAny = false;
  const filter = (text: string): string[] => {
    const result: string[] = [];
    let folded = 0;
    const flush = (): void => {
      if (folded > 0) foldedAny = true;
      if (folded > 0) result.push(`[${folded} build steps]`);
      folded = 0;
    };
    for (const raw of splitLines(stripAnsi(text))) {
      const line = raw.replace(/\s+$/, '');
      if ((PROGRESS.test(line) || COMPILER_COMMAND.test(line) || /^make(?:\[\d+\])?: (?:Entering|Leaving) directory/.test(line) || /^\[\d+\/\d+\] /.test(line)) && !KEEP.test(line.replace(/-W\S+|-Werror\S*/g, ''))) {
        folded++;
        continue;
      }
      flush();
      result.push(line);
    }
    flush();
    return result;
  };
  const stdout = filter(output.stdout);
  const stderr = filter(output.stderr);
  // Nothing a build prints was found (no step, no compiler command, no make chatter): not a build log.
  if (!foldedAny) return null;
  return makeView(name, output, lossy(joinLines(stdout)), lossy(joinLines(stderr)));
}

/** cmake configure: `-- Performing Test X` / `- Success` pairs and detection chatter fold into a count; warnings,
 * errors, failed checks and the final status lines stay. */
export function cmakeConfigureView(name: string, output: CommandOutput): StreamCandidate | null {
  const result: string[] = [];
  let folded = 0;
  for (const line of splitLines(stripAnsi(output.stdout))) {
    if (/^-- (?:Performing Test|Detecting|Check for working|Looking for|Check if|Found |The \w+ compiler identification)/.test(line) && !/fail|not found|no$/i.test(line)) {
      folded++;
      continue;
    }
    result.push(line);
  }
  if (folded > 0) result.unshift(`-- [${folded} successful checks]`);
  return makeView(name, output, lossy(joinLines(result)), null);
}
