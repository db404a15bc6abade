/**
 * A project's hooks live in `.claude/settings.local.json`: they name this machine's paths (and, with --http, carry the
 * serve token), so git must never pick that file up. Claude Code git-ignores the local settings file when IT creates
 * it; when we create it, we make sure ourselves, through `.git/info/exclude` (private to this clone: no change to a
 * file the team shares).
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

export interface IgnoreOutcome {
  readonly ignored: boolean;
  /** It was ignored before we looked: nothing was (or would be) done. */
  readonly already: boolean;
  readonly note: string;
}

function git(cwd: string, args: readonly string[]): { status: number | null; stdout: string } {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  return { status: result.error === undefined ? result.status : null, stdout: (result.stdout ?? '').trim() };
}

/** Makes git ignore `file` (absolute) when cwd is in a git work tree, or says exactly what to do. what: what it holds. */
export function ensureGitIgnored(file: string, cwd: string, dryRun: boolean, what: string): IgnoreOutcome {
  const shown = relative(cwd, file) || file;
  if (git(cwd, ['rev-parse', '--is-inside-work-tree']).stdout !== 'true') {
    return { ignored: false, already: false, note: `not in a git work tree: keep ${shown} out of version control, it holds ${what}` };
  }
  if (git(cwd, ['ls-files', '--error-unmatch', '--', file]).status === 0) {
    return { ignored: false, already: false, note: `${shown} is tracked by git and will hold ${what}: run \`git rm --cached ${shown}\` and commit, or install for yourself only with --scope user` };
  }
  if (git(cwd, ['check-ignore', '-q', '--', file]).status === 0) return { ignored: true, already: true, note: `${shown} is ignored by git` };
  const exclude = resolve(cwd, git(cwd, ['rev-parse', '--git-path', 'info/exclude']).stdout);
  const entry = `/${relative(git(cwd, ['rev-parse', '--show-toplevel']).stdout, file).split('\\').join('/')}`;
  if (dryRun) return { ignored: false, already: false, note: `would add ${entry} to ${exclude} so git ignores the file holding ${what}` };
  mkdirSync(dirname(exclude), { recursive: true });
  const before = existsSync(exclude) ? readFileSync(exclude, 'utf8') : '';
  appendFileSync(exclude, `${before === '' || before.endsWith('\n') ? '' : '\n'}# syt init: holds ${what}\n${entry}\n`);
  if (git(cwd, ['check-ignore', '-q', '--', file]).status === 0) return { ignored: true, already: false, note: `added ${entry} to ${exclude}: git ignores the file holding ${what}` };
  return { ignored: false, already: false, note: `${shown} is still not ignored by git (a "!" rule in a .gitignore?): ignore it before committing, it holds ${what}` };
}
