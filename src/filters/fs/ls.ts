import { hasFlag, hasShortFlag, invocation } from '../../reduce/argv.ts';
import { foldItems, foldLine, mentionedTrees } from '../../reduce/fold.ts';
import { compactNames, joinLines, listName, lossy, makeView } from '../text.ts';
import type { CommandFilter, CommandOutput, StreamCandidate } from '../types.ts';
import { isDiagnostic, listingLines } from './lines.ts';

/**
 * One `ls -l` entry under any locale and time style. The date is what varies: `Dec  1 18:53`, ` 1. Dez 18:53`,
 * `1 déc.  18:53`, `12月  1 18:53`, ` 9  3 09:53`, `12月 1日 18:53`, `дек  1  2024`, `2026-12-01 18:53`, `12-01 18:53`,
 * `2026-12-01 18:53:00.733352589 +0000`. Sizes may be human-readable with a decimal comma (`4,0K`) or a device's
 * `major, minor`. Up to two columns of owner and group (`-g`, `-o`, `-G` drop some); `-i` and `-s` put numbers first.
 */
const SIZE = String.raw`\d+(?:[.,]\d+)?[KMGTPEZYk]?i?|\d+,\s*\d+`;
// macOS ls under ja_JP and other CJK locales prints the month as a bare number (`224  9  3 09:53`).
const MONTH = String.raw`\p{L}[\p{L}.]*|\d{1,2}[\u6708\uc6d4]?`;
const DAY = String.raw`\d{1,2}[.\u65e5\uc77c]?`;
const DATE = String.raw`(?:${MONTH})\s+${DAY}|${DAY}\s+(?:${MONTH})|\d{4}-\d\d-\d\d|\d\d-\d\d`;
// A year stands where the time of day would; locales that left-align it (de_DE: `20. Mai 2025  name`) pad after it.
const TIME = String.raw`\d{1,2}:\d\d(?::\d\d(?:[.,]\d+)?)?(?:\s[+-]\d{4})?|\d{4}\u5e74?\s?`;
const LONG_ENTRY = new RegExp(
  String.raw`^\s*(?:[\d.,]+[KMGTPEZYk]?\s+){0,2}([-dlcbpsDnw?])([-rwxsStTlL?]{9})[.+@]?\s+\d+\s+(?:\S+\s+){0,2}(${SIZE})\s+(?:${DATE})\s+(?:${TIME})\s(.*)$`,
  'u',
);
/** `total 212`, `insgesamt 96K`, `合計 2824`, `итого 96`. */
const TOTAL = /^\S+ \d[\d.,]*[KMGTPEZYk]?$/u;

/** `ls`, `ls -R`, `ls -la`: names are kept; long listings keep name, size and kind (`/` dir, `*` executable,
 * `-> target` link) and drop permissions, owners and dates. Dependency trees' sections of `ls -R` are folded. */
export const lsFilter: CommandFilter = {
  name: 'ls',
  matches(argv) {
    const inv = invocation(argv);
    return inv !== null && (inv.tool === 'ls' || inv.tool === 'll');
  },
  apply(output) {
    const inv = invocation(output.argv);
    if (inv === null) return null;
    const long = inv.tool === 'll' || hasShortFlag(inv.args, 'l') || hasShortFlag(inv.args, 'g') || hasShortFlag(inv.args, 'n') || hasShortFlag(inv.args, 'o');
    if (hasShortFlag(inv.args, 'C') || hasShortFlag(inv.args, 'x') || hasShortFlag(inv.args, 'm') || hasFlag(inv.args, '--format', '--zero')) return null;
    return long ? longView(output, inv.args) : plainView(output, inv.args);
  },
};

interface Section {
  readonly header: string | null;
  readonly entries: string[];
}

interface Parsed {
  readonly diagnostics: string[];
  readonly sections: Section[];
  readonly truncated: string | null;
}

/** Splits `dir:` sections (several operands or -R) from the names under them; `ls: …` lines are set aside. */
function parse(text: string): Parsed {
  const { lines, truncated } = listingLines(text);
  const diagnostics: string[] = [];
  const sections: Section[] = [{ header: null, entries: [] }];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line === truncated) break;
    const previous = i === 0 ? '' : (lines[i - 1] ?? '');
    if (isDiagnostic(line, ['ls'])) diagnostics.push(line);
    else if (line.endsWith(':') && (previous === '' || isDiagnostic(previous, ['ls']))) sections.push({ header: line, entries: [] });
    else if (line !== '') sections[sections.length - 1]?.entries.push(line);
  }
  return { diagnostics, sections: sections.filter((s) => s.header !== null || s.entries.length > 0), truncated };
}

/** Sections in order, with the sections inside dependency trees replaced by one fold line per tree. */
function foldSections(sections: readonly Section[], args: readonly string[]): Array<Section | string> {
  const items = foldItems(
    sections,
    (s) => (s.header === null ? null : s.header.slice(0, -1).replace(/\/$/, '')),
    mentionedTrees(args),
    (s) => s.entries.length + 1,
  );
  if (items === null) return [...sections];
  return items.map((item) => ('kept' in item ? item.kept : foldLine(item.fold)));
}

function finish(output: CommandOutput, parsed: Parsed, body: readonly string[]): StreamCandidate | null {
  const lines = [...parsed.diagnostics, ...body, ...(parsed.truncated === null ? [] : [parsed.truncated])];
  return makeView('ls', output, lossy(joinLines(lines)), null);
}

function plainView(output: CommandOutput, args: readonly string[]): StreamCandidate | null {
  const parsed = parse(output.stdout);
  const body = foldSections(parsed.sections, args).map((s) => {
    if (typeof s === 'string') return s;
    const names = compactNames(s.entries);
    return s.header === null ? names : `${s.header} ${names}`;
  });
  return finish(output, parsed, body);
}

function longView(output: CommandOutput, args: readonly string[]): StreamCandidate | null {
  const parsed = parse(output.stdout);
  const body: string[] = [];
  for (const section of foldSections(parsed.sections, args)) {
    if (typeof section === 'string') {
      body.push(section);
      continue;
    }
    const dirs: string[] = [];
    const files: string[] = [];
    for (const [i, entry] of section.entries.entries()) {
      if (i === 0 && TOTAL.test(entry)) continue;
      const m = LONG_ENTRY.exec(entry);
      // An entry no pattern recognises: the whole listing is declined rather than guessed at.
      if (m === null) return null;
      const [, kind, mode, size, rawName] = m;
      // `-F` and `-p` mark directories with `/` already.
      const name = kind === 'd' ? (rawName ?? '').replace(/\/$/, '') : (rawName ?? '');
      if (name === '.' || name === '..') continue;
      if (kind === 'd') dirs.push(`${listName(name)}/`);
      else if (kind === 'l') files.push(name);
      else files.push(`${listName(name)}${/x/.test(mode ?? '') ? '*' : ''} ${(size ?? '').replace(/\s+/g, '')}`);
    }
    if (section.header !== null) body.push(section.header);
    if (dirs.length > 0) body.push(dirs.join(' '));
    body.push(...files);
  }
  return finish(output, parsed, body);
}
