import { invocation } from '../argv.ts';
import { joinLines, lossy, makeView, splitLines } from '../text.ts';
import type { CommandFilter } from '../types.ts';

/** Below this a file is shown as is: folding could not pay for the marker. */
const MIN_BYTES = 4096;

/** cat/head/tail/sed -n/bat on large files: only trailing whitespace, blank-line runs and repeated lines are folded.
 * Code is never dropped; JSON goes to the runtime's JSON compressor instead (null here). */
export const readFilter: CommandFilter = {
  name: 'read',
  matches(argv) {
    const inv = invocation(argv);
    if (inv === null) return false;
    if (inv.tool === 'sed') return inv.args.includes('-n') && !inv.args.some((a) => a === '-i' || a.startsWith('--in-place'));
    return ['cat', 'head', 'tail', 'bat', 'batcat', 'less', 'more', 'nl'].includes(inv.tool) && !inv.args.includes('-f');
  },
  apply(output) {
    const text = output.stdout;
    if (text.length < MIN_BYTES) return null;
    const trimmed = text.trimStart();
    if (/^[[{]/.test(trimmed) && /[\]}]\s*$/.test(text)) return null;
    const lines = splitLines(text).map((l) => l.replace(/[ \t]+(\r?)$/, '$1'));
    // Runs of blank lines become one; repeated identical lines fold to `line ×N`.
    const squeezed = lines.filter((l, i) => l.trim() !== '' || (lines[i - 1] ?? 'x').trim() !== '');
    return makeView('read', output, lossy(joinLines(foldIdentical(squeezed))), null);
  },
};

/** Only identical repeats are folded in files: lines that differ in numbers are data the reader asked for. */
function foldIdentical(lines: readonly string[]): string[] {
  const result: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    let j = i + 1;
    while (j < lines.length && lines[j] === line) j++;
    if (j - i >= 4 && line.trim() !== '') result.push(`${line} ×${j - i}`);
    else for (let k = i; k < j; k++) result.push(line);
    i = j;
  }
  return result;
}
