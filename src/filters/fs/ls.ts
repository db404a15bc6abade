import { hasFlag, hasShortFlag, invocation } from '../argv.ts';
import { compactNames, joinLines, listName, lossy, makeView, splitLines } from '../text.ts';
import type { CommandFilter, CommandOutput, FilterView } from '../types.ts';

const LONG_ENTRY =
  /^([-dlcbps])([-rwxsStT]{9})[.+@]?\s+\d+\s+\S+\s+\S+\s+([\d,]+(?:\.\d+)?[KMGTP]?)\s+(?:\w{3}\s+\d{1,2}|\d{1,2}\s+\w{3}|\d{4}-\d\d-\d\d)\s+(?:\d{1,2}:\d\d|\d{4}|\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?: [+-]\d{4})?)\s(.*)$/;

/** `ls`, `ls -R`, `ls -la`: names are kept; long listings keep name, size and kind (`/` dir, `*` executable,
 * `-> target` link) and drop permissions, owners and dates. */
export const lsFilter: CommandFilter = {
  name: 'ls',
  matches(argv) {
    const inv = invocation(argv);
    return inv !== null && (inv.tool === 'ls' || inv.tool === 'll');
  },
  apply(output) {
    const inv = invocation(output.argv);
    if (inv === null) return null;
    const long = inv.tool === 'll' || hasShortFlag(inv.args, 'l') || hasShortFlag(inv.args, 'g') || hasShortFlag(inv.args, 'n');
    if (hasShortFlag(inv.args, 'C') || hasShortFlag(inv.args, 'x') || hasFlag(inv.args, '--format')) return null;
    return long ? longView(output) : plainView(output);
  },
};

/** Splits `dir:` sections (several operands or -R) from the names under them. */
function sections(lines: readonly string[]): Array<{ header: string | null; entries: string[] }> {
  const result: Array<{ header: string | null; entries: string[] }> = [{ header: null, entries: [] }];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const previous = i === 0 ? '' : lines[i - 1] ?? '';
    if (line.endsWith(':') && previous === '') {
      result.push({ header: line, entries: [] });
    } else if (line !== '') {
      result[result.length - 1]?.entries.push(line);
    }
  }
  return result.filter((s) => s.header !== null || s.entries.length > 0);
}

function plainView(output: CommandOutput): FilterView | null {
  const result = sections(splitLines(output.stdout)).map((s) => {
    const names = compactNames(s.entries);
    return s.header === null ? names : `${s.header} ${names}`;
  });
  return makeView('ls', output, lossy(joinLines(result)), null);
}

function longView(output: CommandOutput): FilterView | null {
  const result: string[] = [];
  for (const section of sections(splitLines(output.stdout))) {
    const dirs: string[] = [];
    const files: string[] = [];
    for (const entry of section.entries) {
      if (/^total \d/.test(entry)) continue;
      const m = LONG_ENTRY.exec(entry);
      if (m === null) return null;
      const [, kind, mode, size, name] = m;
      if (name === '.' || name === '..') continue;
      if (kind === 'd') dirs.push(`${listName(name ?? '')}/`);
      else if (kind === 'l') files.push(name ?? '');
      else files.push(`${listName(name ?? '')}${/x/.test(mode ?? '') ? '*' : ''} ${size ?? ''}`);
    }
    if (section.header !== null) result.push(section.header);
    if (dirs.length > 0) result.push(dirs.join(' '));
    result.push(...files);
  }
  return makeView('ls', output, lossy(joinLines(result)), null);
}
