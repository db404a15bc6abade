import { invocation } from '../../reduce/argv.ts';
import { pays } from '../../reduce/stream.ts';
import { foldRuns, joinLines, lossy, makeView, splitLines, stripAnsi } from '../text.ts';
import type { CommandFilter, CommandOutput, StreamCandidate } from '../types.ts';
import { compactListing, tabsMissed } from './table.ts';

/** Re-emits a fixed-width table with one tab between cells instead of alignment padding. */
function compactTable(name: string, output: CommandOutput): StreamCandidate | null {
  const tsv = compactListing(output.stdout);
  if (tsv === null || !pays(output.stdout, lossy(tsv), tabsMissed(tsv))) return null;
  return makeView(name, output, lossy(tsv), null);
}

function logsView(name: string, output: CommandOutput): StreamCandidate | null {
  const fold = (text: string): string => joinLines(foldRuns(splitLines(stripAnsi(text))));
  return makeView(name, output, lossy(fold(output.stdout)), lossy(fold(output.stderr)));
}

/** Output asked for in another format (`-o yaml`, `--format '{{.ID}}'`): not a padded table. `-o wide` still is. */
function structured(args: readonly string[]): boolean {
  return args.some((arg, i) => {
    const flag = /^(?:--format|-o|--output)(?:=(.*))?$/.exec(arg);
    if (flag === null) return false;
    const value = flag[1] ?? args[i + 1] ?? '';
    return value !== 'wide';
  });
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
    if (inv === null || structured(inv.args)) return null;
    const sub = inv.args.find((a) => !a.startsWith('-')) ?? '';
    return sub === 'logs' ? logsView('container', output) : compactTable('container', output);
  },
};
