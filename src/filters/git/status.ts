import { gitSubcommand, hasFlag, hasShortFlag } from '../argv.ts';
import { joinLines, listName, lossy, makeView, splitLines } from '../text.ts';
import type { CommandFilter, CommandOutput, FilterView } from '../types.ts';

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

function statusView(output: CommandOutput): FilterView | null {
  const lines = splitLines(output.stdout);
  const result: string[] = [];
  let section: { name: string; entries: Array<readonly [string, string]> } | null = null;
  const close = (): void => {
    if (section !== null) result.push(sectionLine(section.name, section.entries));
    section = null;
  };
  for (const raw of lines) {
    const line = raw.replace(/\r$/, '');
    if (/^\s*\((?:use|fix|all conflicts|commit or discard)\b.*\)$/.test(line) || line.trim() === '') continue;
    const sectionName = SECTIONS.find(([re]) => re.test(line))?.[1];
    if (sectionName !== undefined) {
      close();
      section = { name: sectionName, entries: [] };
      continue;
    }
    if (section !== null && line.startsWith('\t')) {
      const entry = /^\t([a-z][a-z ]*[a-z]):\s+(.*)$/.exec(line);
      const code = entry === null ? undefined : KINDS[entry[1] ?? ''];
      section.entries.push(code !== undefined && entry !== null ? [code, entry[2] ?? ''] : ['', line.slice(1)]);
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

/** `unstaged 3: D examples/README.md; M lib/request.js lib/response.js`: entries grouped by their status code. */
function sectionLine(name: string, entries: ReadonlyArray<readonly [string, string]>): string {
  const byCode = new Map<string, string[]>();
  for (const [code, path] of entries) {
    const paths = byCode.get(code) ?? [];
    paths.push(listName(path));
    byCode.set(code, paths);
  }
  const groups = [...byCode].map(([code, paths]) => `${code === '' ? '' : `${code} `}${paths.join(' ')}`);
  return `${name} ${entries.length}: ${groups.join('; ')}`;
}

function compactBranchLine(line: string): string {
  if (line === 'nothing to commit, working tree clean') return 'clean';
  return line;
}
