import { gitSubcommand, hasFlag, hasShortFlag } from '../../reduce/argv.ts';
import { groupPathsByDir, joinLines, listName, lossy, makeView, splitLines } from '../text.ts';
import type { CommandFilter, CommandOutput, StreamCandidate } from '../types.ts';

const SECTIONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^Changes to be committed:$/, 'staged'],
  [/^Changes not staged for commit:$/, 'unstaged'],
  [/^Untracked files:$/, 'untracked'],
  [/^Unmerged paths:$/, 'unmerged'],
  [/^Ignored files:$/, 'ignored'],
];

// Long-format entry kinds -> the one-letter codes of `git status -s`, which agents read fluently.
const KINDS: Record<string, string> = {
  'modified': 'M',
  'new file': 'A',
  'deleted': 'D',
  'renamed': 'R',
  'copied': 'C',
  'typechange': 'T',
  'both modified': 'UU',
  'both added': 'AA',
  'both deleted': 'DD',
  'added by us': 'AU',
  'added by them': 'UA',
  'deleted by us': 'DU',
  'deleted by them': 'UD',
};

/** `git status` (long format): sections become `staged (N):` with one `M path` line per entry; hint lines go.
 * Every path and every line that is not a hint is kept. Short and porcelain formats are already compact. */
export const gitStatusFilter: CommandFilter = {
  name: 'git-status',
  matches(argv) {
    const git = gitSubcommand(argv);
    return git !== null && git.sub === 'status';
  },
  apply(output) {
    const git = gitSubcommand(output.argv);
    if (git === null) return null;
    if (hasFlag(git.args, '--short', '--porcelain', '-z') || hasShortFlag(git.args, 's')) return null;
    return statusView(output);
  },
};

function statusView(output: CommandOutput): StreamCandidate | null {
  const lines = splitLines(output.stdout);
  // The long format indents only hints (two spaces, parenthesised) and entries (a tab): anything else indented, or
  // a commit header, means this is not `git status` output as we know it.
  if (lines.some((l) => (/^ /.test(l) && !isHint(l.replace(/\r$/, ''))) || /^commit [0-9a-f]{7,}/.test(l))) return null;
  const result: string[] = [];
  let section: { name: string; entries: Array<readonly [string, string]> } | null = null;
  const close = (): void => {
    if (section !== null) result.push(sectionLine(section.name, section.entries));
    section = null;
  };
  const clean = lines.map((raw) => raw.replace(/\r$/, ''));
  for (const [index, line] of clean.entries()) {
    // Hints are indented and parenthesised in every locale git is translated to.
    if (isHint(line) || line.trim() === '') continue;
    const sectionName = SECTIONS.find(([re]) => re.test(line))?.[1] ?? localSection(clean, index);
    if (sectionName !== undefined) {
      close();
      section = { name: sectionName, entries: [] };
      continue;
    }
    if (section !== null && line.startsWith('\t')) {
      const entry = /^\t([a-z][a-z ]*[a-z]):\s+(.*)$/.exec(line);
      const code = entry === null ? undefined : KINDS[entry[1] ?? ''];
      // An entry kind in another language (`neue Datei:   notes.md`) keeps its words, without the column padding.
      const local = code === undefined ? /^\t(\S[^:\t]*:)\s{2,}(\S.*)$/.exec(line) : null;
      if (code !== undefined && entry !== null) section.entries.push([code, entry[2] ?? '']);
      else if (local !== null) section.entries.push([local[1] ?? '', local[2] ?? '']);
      else section.entries.push(['', line.slice(1)]);
      continue;
    }
    close();
    const upstream = /^Your branch is up to date with '(.+)'\.$/.exec(line);
    const previous = result[result.length - 1];
    if (upstream !== null && previous !== undefined && /^On branch \S+$/.test(previous)) {
      result[result.length - 1] = `${previous.slice('On branch '.length)} = ${upstream[1] ?? ''}`;
      continue;
    }
    result.push(compactBranchLine(line));
  }
  close();
  return makeView('git-status', output, lossy(joinLines(result)), null);
}

function isHint(line: string): boolean {
  return /^\s+\(.*\)$/.test(line);
}

/** A section header in a language other than English: an unindented line ending with `:` whose next non-hint line
 * is a tab-indented entry. Its own words name the section. */
function localSection(lines: readonly string[], index: number): string | undefined {
  const line = lines[index] ?? '';
  if (!/^\S.*:$/.test(line)) return undefined;
  const next = lines.slice(index + 1).find((l) => !isHint(l));
  return next !== undefined && next.startsWith('\t') ? line.slice(0, -1).trimEnd() : undefined;
}

/** A section with this many entries lists them by directory, one line each. */
const BY_DIRECTORY = 9;

/** `unstaged 3: D examples/README.md; M lib/request.js lib/response.js`: entries grouped by their status code; a
 * long section (untracked files of a new tree) lists each code's paths by directory on their own lines. */
function sectionLine(name: string, entries: ReadonlyArray<readonly [string, string]>): string {
  const byCode = new Map<string, string[]>();
  for (const [code, path] of entries) {
    const paths = byCode.get(code) ?? [];
    paths.push(path);
    byCode.set(code, paths);
  }
  if (entries.length >= BY_DIRECTORY) {
    const rows = [...byCode].flatMap(([code, paths]) => groupPathsByDir(paths).map((row) => `  ${code === '' ? '' : `${code} `}${row}`));
    return [`${name} ${entries.length}:`, ...rows].join('\n');
  }
  const groups = [...byCode].map(([code, paths]) => `${code === '' ? '' : `${code} `}${paths.map(listName).join(' ')}`);
  return `${name} ${entries.length}: ${groups.join('; ')}`;
}

function compactBranchLine(line: string): string {
  if (line === 'nothing to commit, working tree clean') return 'clean';
  return line;
}
