/**
 * The project-scope HTTP hooks carry the serve token in `.claude/settings.local.json`: git must never pick that file
 * up. Claude Code git-ignores the local settings file when IT creates it; when we create it, we make sure ourselves,
 * through `.git/info/exclude` (private to this clone: no change to a file the team shares).
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

export interface IgnoreOutcome {
  readonly ignored: boolean;
  readonly note: string;
}

function git(cwd: string, args: readonly string[]): { status: number | null; stdout: string } {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  return { status: result.error === undefined ? result.status : null, stdout: (result.stdout ?? '').trim() };
}

/** Makes git ignore `file` (absolute) when cwd is in a git work tree, or says exactly what to do. */
export function ensureGitIgnored(file: string, cwd: string, dryRun: boolean): IgnoreOutcome {
  const shown = relative(cwd, file) || file;
  if (git(cwd, ['rev-parse', '--is-inside-work-tree']).stdout !== 'true') {
    return { ignored: false, note: `not in a git work tree: keep ${shown} out of version control, it holds the hook token` };
  }
  if (git(cwd, ['ls-files', '--error-unmatch', '--', file]).status === 0) {
    return { ignored: false, note: `${shown} is tracked by git and will hold the hook token: run \`git rm --cached ${shown}\` and commit` };
  }
  if (git(cwd, ['check-ignore', '-q', '--', file]).status === 0) return { ignored: true, note: `${shown} is ignored by git` };
  const exclude = resolve(cwd, git(cwd, ['rev-parse', '--git-path', 'info/exclude']).stdout);
  const entry = `/${relative(git(cwd, ['rev-parse', '--show-toplevel']).stdout, file).split('\\').join('/')}`;
  if (dryRun) return { ignored: false, note: `would add ${entry} to ${exclude} so git ignores the file holding the hook token` };
  mkdirSync(dirname(exclude), { recursive: true });
  const before = existsSync(exclude) ? readFileSync(exclude, 'utf8') : '';
  appendFileSync(exclude, `${before === '' || before.endsWith('\n') ? '' : '\n'}# syt init --http: holds the hook token\n${entry}\n`);
  if (git(cwd, ['check-ignore', '-q', '--', file]).status === 0) return { ignored: true, note: `added ${entry} to ${exclude}: git ignores the file holding the hook token` };
  return { ignored: false, note: `${shown} is still not ignored by git (a "!" rule in a .gitignore?): ignore it before committing, it holds the hook token` };
}
