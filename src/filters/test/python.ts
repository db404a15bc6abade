import { joinLines, lossy, makeView, splitLines, stripAnsi } from '../text.ts';
import type { CommandOutput, StreamCandidate } from '../types.ts';
import { tidyBlankLines } from './frames.ts';
import { foldTracebacks } from './pytrace.ts';

const PYTEST_FINAL = /^=+ (.*\d+ (?:passed|failed|error|errors|skipped|xfailed|xpassed|deselected|warnings?|no tests ran).*) =+$/;
const PYTEST_PROGRESS = /^(?:\S+\.py\s+)?[.FEsxXp]+\s*(?:\[\s*\d+%\])?$/;

/** pytest: passing runs -> the final counts line; failing runs -> FAILURES/ERRORS sections, the short summary and
 * the counts (session header and progress dots go). */
export function pytestView(name: string, output: CommandOutput): StreamCandidate | null {
  const lines = splitLines(stripAnsi(output.stdout));
  const finalIndex = lines.findLastIndex((l) => PYTEST_FINAL.test(l) || /^\d+ (?:passed|failed).* in [\d.]+s/.test(l));
  if (finalIndex < 0) return null;
  const final = lines[finalIndex] ?? '';
  const counts = PYTEST_FINAL.exec(final)?.[1] ?? final;
  if (output.exitCode === 0) return makeView(name, output, lossy(`pytest: ${counts}\n`), null);
  const start = lines.findIndex((l) => /^=+ (?:FAILURES|ERRORS|warnings summary|short test summary info) =+$/.test(l));
  const kept = start < 0
    ? lines.filter((l) => !PYTEST_PROGRESS.test(l.trim()) || l.trim() === '')
    : lines.slice(start, finalIndex);
  return makeView(name, output, lossy(joinLines([...tidyBlankLines(foldTracebacks(kept)), `pytest: ${counts}`])), null);
}

/** python -m unittest: the `... ok` lines and progress dots go; failure blocks and `Ran N tests` / `OK` stay. */
export function unittestView(name: string, output: CommandOutput): StreamCandidate | null {
  const filter = (text: string): string[] | null => {
    const lines = splitLines(stripAnsi(text));
    const ran = lines.findIndex((l) => /^Ran \d+ tests? in /.test(l));
    if (ran < 0) return null;
    const blocks = lines.findIndex((l) => /^={20,}$/.test(l));
    const cut = blocks >= 0 && blocks < ran ? blocks : Math.max(0, ran - 1);
    const before = lines.slice(0, cut).filter((l, i, all) => {
      if (/\.\.\. (?:ok|skipped.*|expected failure)$/.test(l) || /^[.sxFE]+$/.test(l)) return false;
      // The name line of a two-line verbose entry whose verdict is on the next line.
      if (/^\w+ \([\w.]+\)$/.test(l) && / \.\.\. (?:ok|skipped.*)$/.test(all[i + 1] ?? '')) return false;
      return true;
    });
    return tidyBlankLines([...before, ...foldTracebacks(lines.slice(cut))]);
  };
  const err = filter(output.stderr);
  const out = filter(output.stdout);
  if (err === null && out === null) return null;
  return makeView(name, output, out === null ? null : lossy(joinLines(out)), err === null ? null : lossy(joinLines(err)));
}
