import { joinLines, lossy, makeView, splitLines, stripAnsi } from '../text.ts';
import type { CommandOutput, StreamCandidate } from '../types.ts';
import { type Diagnostic, renderGrouped } from './diagnostics.ts';

const PLAIN = /^(.+?)\((\d+),(\d+)\): (error|warning|message) (TS\d+): (.*)$/;
const PRETTY = /^(.+?):(\d+):(\d+) - (error|warning|message) (TS\d+): (.*)$/;

/** tsc: diagnostics grouped by file and by code+message; elaboration lines kept; pretty-mode code frames dropped
 * (they repeat the source line the location already names). Other lines (build banners) are kept. */
export function tscView(name: string, output: CommandOutput): StreamCandidate | null {
  const lines = splitLines(stripAnsi(output.stdout));
  const diagnostics: Diagnostic[] = [];
  const other: string[] = [];
  let current: { d: Diagnostic; more: string[] } | null = null;
  const flush = (): void => {
    if (current !== null) diagnostics.push({ ...current.d, more: current.more });
    current = null;
  };
  for (const line of lines) {
    const m = PLAIN.exec(line) ?? PRETTY.exec(line);
    if (m !== null) {
      flush();
      current = {
        d: { file: m[1] ?? '', location: `${m[2] ?? ''}:${m[3] ?? ''}`, severity: m[4] ?? '', code: m[5] ?? '', message: m[6] ?? '', more: [] },
        more: [],
      };
      continue;
    }
    if (current !== null && /^\s+\S/.test(line) && !/^\s*\d+\s/.test(line) && !/^\s+~+$/.test(line)) {
      current.more.push(line);
      continue;
    }
    if (current !== null && (line.trim() === '' || /^\d+\s/.test(line) || /^\s+~+\s*$/.test(line))) continue;
    flush();
    if (line.trim() !== '') other.push(line);
  }
  flush();
  if (diagnostics.length === 0) return null;
  return makeView(name, output, lossy(joinLines([...other.filter((l) => !/^> \S/.test(l)), ...renderGrouped(diagnostics)])), null);
}
