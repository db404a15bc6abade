import { gitSubcommand, hasFlag } from '../../reduce/argv.ts';
import { joinLines, lossy, makeView, splitLines } from '../text.ts';
import type { CommandFilter, CommandOutput } from '../types.ts';

function subIs(argv: readonly string[], ...subs: string[]): boolean {
  const git = gitSubcommand(argv);
  return git !== null && subs.includes(git.sub);
}

/** `git branch [-a]`: the current branch, local branches, then remote branches grouped by remote. */
export const gitBranchFilter: CommandFilter = {
  name: 'git-branch',
  matches: (argv) => subIs(argv, 'branch'),
  apply(output) {
    const git = gitSubcommand(output.argv);
    if (git === null || hasFlag(git.args, '-v', '-vv', '--verbose', '--format')) return null;
    const local: string[] = [];
    const remotes = new Map<string, string[]>();
    for (const line of splitLines(output.stdout)) {
      const m = /^([* +]) (.+)$/.exec(line);
      if (m === null) return null;
      const name = (m[1] === '*' ? '*' : '') + (m[2] ?? '');
      const remote = /^remotes\/([^/]+)\/(.+)$/.exec(m[2] ?? '');
      if (remote === null) {
        local.push(name);
      } else {
        const list = remotes.get(remote[1] ?? '') ?? [];
        list.push(remote[2] ?? '');
        remotes.set(remote[1] ?? '', list);
      }
    }
    const result = [local.join(' '), ...[...remotes].map(([remote, names]) => `${remote}/: ${names.join(' ')}`)];
    return makeView('git-branch', output, lossy(joinLines(result.filter((l) => l !== ''))), null);
  },
};

/** `git shortlog -sn`: counts without padding; authors with the same count share one line. */
export const gitShortlogFilter: CommandFilter = {
  name: 'git-shortlog',
  matches: (argv) => subIs(argv, 'shortlog'),
  apply(output) {
    const result: string[] = [];
    let last: { count: string; names: string[] } | null = null;
    for (const line of splitLines(output.stdout)) {
      const m = /^\s*(\d+)\t(.*)$/.exec(line);
      if (m === null) return null;
      if (last !== null && last.count === m[1]) {
        last.names.push(m[2] ?? '');
        continue;
      }
      if (last !== null) result.push(`${last.count}: ${last.names.join(', ')}`);
      last = { count: m[1] ?? '', names: [m[2] ?? ''] };
    }
    if (last !== null) result.push(`${last.count}: ${last.names.join(', ')}`);
    return makeView('git-shortlog', output, lossy(joinLines(result)), null);
  },
};

/** `git blame`: folded by commit. Each run of consecutive lines from one commit gets one header, `hash L7-12`
 * (a single line: `hash L7`); the commit's file name (when blame follows a rename), author and date appear on its
 * first header only. Line text is kept exactly; its number follows from the run's range. */
export const gitBlameFilter: CommandFilter = {
  name: 'git-blame',
  matches: (argv) => subIs(argv, 'blame', 'annotate'),
  apply(output) {
    const runs: Array<{ hash: string; first: string; last: string; lines: string[] }> = [];
    const described = new Map<string, string>();
    let expected = -1;
    for (const line of splitLines(output.stdout)) {
      const m = /^(\^?[0-9a-f]{7,40}) (?:(\S+)\s+)?\((.*?)\s+(\d{4}-\d\d-\d\d) [\d:]+ [+-]\d{4}\s+(\d+)\) ?(.*)$/.exec(line);
      if (m === null) return null;
      const hash = m[1] ?? '';
      const number = Number(m[5]);
      if (!described.has(hash)) described.set(hash, [m[2], m[3]?.trim(), m[4]].filter((p) => p !== undefined && p !== '').join(' '));
      const run = runs[runs.length - 1];
      if (run !== undefined && run.hash === hash && number === expected) {
        run.last = m[5] ?? '';
        run.lines.push(m[6] ?? '');
      } else {
        runs.push({ hash, first: m[5] ?? '', last: m[5] ?? '', lines: [m[6] ?? ''] });
      }
      expected = number + 1;
    }
    const shown = new Set<string>();
    const result = runs.flatMap((run) => {
      const range = run.first === run.last ? `L${run.first}` : `L${run.first}-${run.last}`;
      const about = shown.has(run.hash) ? '' : ` ${described.get(run.hash) ?? ''}`;
      shown.add(run.hash);
      return [`${run.hash} ${range}${about}:`, ...run.lines];
    });
    return makeView('git-blame', output, lossy(joinLines(result)), null);
  },
};

/** `git stash list`: `stash@{N}: WIP on b: subject` -> `N WIP b: subject`. */
export const gitStashFilter: CommandFilter = {
  name: 'git-stash',
  matches: (argv) => subIs(argv, 'stash'),
  apply(output) {
    const git = gitSubcommand(output.argv);
    if (git === null || git.args[0] !== 'list') return null;
    const result: string[] = [];
    for (const line of splitLines(output.stdout)) {
      const m = /^stash@\{(\d+)\}: (?:WIP on|On) ([^:]+): (.*)$/.exec(line);
      result.push(m === null ? line : `${m[1] ?? ''} ${m[2] ?? ''}: ${m[3] ?? ''}`);
    }
    return makeView('git-stash', output, lossy(joinLines(result)), null);
  },
};

/** Write commands succeed quietly: a one-line acknowledgement such as `ok main 1a2b3c4`. Failures stay verbatim. */
export const gitWriteFilter: CommandFilter = {
  name: 'git-write',
  matches: (argv) => subIs(argv, 'add', 'commit', 'push', 'pull', 'fetch', 'checkout', 'switch', 'merge', 'rm', 'mv'),
  apply(output) {
    const git = gitSubcommand(output.argv);
    if (git === null || output.exitCode !== 0) return null;
    const ack = acknowledgement(git.sub, output);
    return ack === null ? null : makeView('git-write', output, lossy(`${ack}\n`), lossy(''));
  },
};

function acknowledgement(sub: string, output: CommandOutput): string | null {
  const all = `${output.stdout}\n${output.stderr}`;
  const lines = splitLines(all).map((l) => l.trim()).filter((l) => l !== '');
  const stat = lines.find((l) => /^\d+ files? changed/.test(l));
  switch (sub) {
    case 'commit': {
      const m = /^\[([^\]\s]+)(?: \([^)]*\))? ([0-9a-f]{7,40})\]/m.exec(all);
      return m === null ? null : ['ok', m[1], m[2], stat].filter(Boolean).join(' ');
    }
    case 'push': {
      const refs = lines.filter((l) => /^[+*=!-]?\s*(?:[0-9a-f]+\.\.\.?[0-9a-f]+|\[new [a-z]+\]|\[up to date\])\s+\S+ -> \S+/.test(l));
      if (lines.some((l) => l === 'Everything up-to-date')) return 'ok up-to-date';
      return refs.length === 0 ? null : `ok ${refs.map((r) => r.replace(/\s+/g, ' ')).join('; ')}`;
    }
    case 'pull':
    case 'merge': {
      if (lines.some((l) => l.startsWith('Already up to date'))) return 'ok up-to-date';
      const range = /Updating ([0-9a-f]+\.\.[0-9a-f]+)/.exec(all);
      const mode = lines.includes('Fast-forward') ? 'fast-forward' : '';
      return range === null && stat === undefined ? null : ['ok', range?.[1], mode, stat].filter(Boolean).join(' ');
    }
    case 'fetch': {
      const refs = lines.filter((l) => / -> /.test(l)).map((l) => l.replace(/\s+/g, ' '));
      return refs.length === 0 ? null : `ok ${refs.join('; ')}`;
    }
    default:
      // add/rm/mv/checkout print little or nothing worth replacing.
      return null;
  }
}
