import { invocation } from '../../reduce/argv.ts';
import { foldRuns, joinLines, lossy, makeView, splitLines, stripAnsi } from '../text.ts';
import type { CommandFilter, CommandOutput, StreamCandidate } from '../types.ts';

/** Column starts of a left-aligned table, read from its header (words separated by 2+ spaces). */
function columnStarts(header: string): number[] {
  const starts: number[] = [];
  const re = /(?:^|\s{2,})(\S)/g;
  for (let m = re.exec(header); m !== null; m = re.exec(header)) starts.push(m.index + m[0].length - 1);
  return starts;
}

/** Re-emits a fixed-width table with one tab between cells instead of alignment padding. */
function compactTable(name: string, output: CommandOutput): StreamCandidate | null {
  const lines = splitLines(output.stdout);
  const header = lines[0];
  if (header === undefined || lines.length < 2) return null;
  const starts = columnStarts(header);
  if (starts.length < 2) return null;
  const rows = lines.map((line) =>
    starts.map((start, i) => line.slice(start, starts[i + 1] ?? line.length).trim()).join('\t'),
  );
  return makeView(name, output, lossy(joinLines(rows)), null);
}

function logsView(name: string, output: CommandOutput): StreamCandidate | null {
  const fold = (text: string): string => joinLines(foldRuns(splitLines(stripAnsi(text))));
  return makeView(name, output, lossy(fold(output.stdout)), lossy(fold(output.stderr)));
}

/** docker ps/images/logs, kubectl get/logs: tables lose their padding, logs fold repeated lines. */
export const containerFilter: CommandFilter = {
  name: 'container',
  matches(argv) {
    const inv = invocation(argv);
    if (inv === null) return false;
    const sub = inv.args.find((a) => !a.startsWith('-')) ?? '';
    if (inv.tool === 'docker' || inv.tool === 'podman') return ['ps', 'images', 'logs', 'container', 'image'].includes(sub);
    if (inv.tool === 'kubectl' || inv.tool === 'oc') return ['get', 'logs', 'top'].includes(sub);
    return false;
  },
  apply(output) {
    const inv = invocation(output.argv);
    if (inv === null || inv.args.some((a) => /^(?:--format|-o|--output)(?:=|$)/.test(a) && !/wide/.test(a))) return null;
    const sub = inv.args.find((a) => !a.startsWith('-')) ?? '';
    return sub === 'logs' ? logsView('container', output) : compactTable('container', output);
  },
};
