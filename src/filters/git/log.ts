import { gitSubcommand } from '../../reduce/argv.ts';
import { joinLines, lossy, makeView, splitLines } from '../text.ts';
import type { CommandFilter } from '../types.ts';
import { compactDiff } from './diff.ts';

interface Commit {
  hash: string;
  decoration: string;
  merge: boolean;
  author: string;
  date: string;
  message: string[];
  rest: string[];
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Mon Jul 27 16:54:23 2026 -0500` -> `2026-07-27`; other formats stay as printed. */
function shortDate(date: string): string {
  const m = /^\w{3} (\w{3}) (\d{1,2}) [\d:]+ (\d{4})/.exec(date);
  const month = m === null ? -1 : MONTHS.indexOf(m[1] ?? '');
  if (m === null || month < 0) return date;
  return `${m[3] ?? ''}-${String(month + 1).padStart(2, '0')}-${(m[2] ?? '').padStart(2, '0')}`;
}

/** Parses the default `git log`/`git show` commit format; null when the text is in any other format. */
function parseCommits(lines: readonly string[]): Commit[] | null {
  const commits: Commit[] = [];
  let current: Commit | null = null;
  let inMessage = false;
  for (const line of lines) {
    const head = /^commit ([0-9a-f]{7,64})(.*)$/.exec(line);
    if (head !== null) {
      current = { hash: head[1] ?? '', decoration: (head[2] ?? '').trim(), merge: false, author: '', date: '', message: [], rest: [] };
      commits.push(current);
      inMessage = false;
      continue;
    }
    if (current === null) return null;
    if (!inMessage && current.rest.length === 0) {
      if (line.startsWith('Author: ')) current.author = line.slice(8).replace(/\s*<[^>]*>$/, '').trim();
      else if (line.startsWith('Date: ')) current.date = shortDate(line.slice(6).trim());
      else if (line.startsWith('Merge: ')) current.merge = true;
      else if (line === '') inMessage = true;
      else current.rest.push(line);
      continue;
    }
    if (inMessage && (line.startsWith('    ') || line === '')) {
      current.message.push(line.slice(4));
      continue;
    }
    inMessage = false;
    current.rest.push(line);
  }
  for (const commit of commits) {
    while (commit.message.length > 0 && commit.message[commit.message.length - 1] === '') commit.message.pop();
  }
  return commits.length > 0 ? commits : null;
}

function headline(c: Commit, abbrev: number): string {
  const subject = c.message.find((l) => l.trim() !== '') ?? '';
  const meta = [c.hash.slice(0, abbrev), c.date, c.decoration, c.merge ? '(merge)' : ''].filter((p) => p !== '');
  return `${meta.join(' ')} ${c.author}: ${subject}`;
}

/** Stat lines lose their alignment padding; diffs keep every hunk (see compactDiff). */
function compactRest(rest: readonly string[]): string[] {
  const trimmed = [...rest];
  while (trimmed.length > 0 && trimmed[trimmed.length - 1] === '') trimmed.pop();
  const lines = trimmed.map((l) => {
    const stat = /^ (\S.*?)\s+\|\s+(.*)$/.exec(l);
    // The +/- bar is scaled to the terminal, not exact; the number of changed lines before it says it all.
    return stat === null ? l : ` ${stat[1] ?? ''} | ${(stat[2] ?? '').replace(/^(\d+) [+-]+$/, '$1')}`;
  });
  return compactDiff(lines) ?? lines;
}

/** `git log` (default format): one line per commit (short hash, date, author, subject); bodies and trailers are
 * folded (a closing line counts them), stats and patches kept (bulk files collapsed, see compactDiff). */
export const gitLogFilter: CommandFilter = {
  name: 'git-log',
  matches(argv) {
    const git = gitSubcommand(argv);
    return git !== null && git.sub === 'log';
  },
  apply(output) {
    const commits = parseCommits(splitLines(output.stdout));
    if (commits === null) return null;
    const result = commits.flatMap((c) => [headline(c, 9), ...compactRest(c.rest)]);
    // Say what the one-line form hides, so the agent knows to retrieve the full log when a body matters.
    const withBody = commits.filter((c) => c.message.filter((l) => l.trim() !== '').length > 1).length;
    if (withBody > 0) result.push(`[message bodies of ${withBody} of ${commits.length} commits folded]`);
    return makeView('git-log', output, lossy(joinLines(result)), null);
  },
};

/** `git show <commit>`: compact commit header, the full message, every hunk of the patch. */
export const gitShowFilter: CommandFilter = {
  name: 'git-show',
  matches(argv) {
    const git = gitSubcommand(argv);
    return git !== null && git.sub === 'show';
  },
  apply(output) {
    const lines = splitLines(output.stdout);
    const commits = parseCommits(lines);
    if (commits === null) {
      const diff = compactDiff(lines);
      return diff === null ? null : makeView('git-show', output, lossy(joinLines(diff)), null);
    }
    const result = commits.flatMap((c) => {
      const [, ...body] = c.message;
      return [headline(c, 12), ...body.filter((l, i) => l !== '' || (body[i - 1] ?? '') !== ''), ...compactRest(c.rest)];
    });
    return makeView('git-show', output, lossy(joinLines(result)), null);
  },
};
