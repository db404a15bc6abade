/**
 * Aliases and functions of the agent's shell (issue 15, item 1). Claude Code runs each Bash command as
 * `bash -c "source <snapshot> 2>/dev/null || true && … && eval '<command>' < /dev/null && pwd -P >| <cwd file>"`,
 * where the snapshot holds the user's aliases and functions (observed with 2.1.332). A rewritten line must run the same
 * alias or function as the raw line; only a name that resolves to a program on disk may run through the wrapper.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GIT_ENV, buildFixtureRepo } from '../helpers/fixture-repo.ts';
import { runCli } from '../helpers/cli.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();

/** The shape of a real Claude Code 2.1.332 snapshot, reduced to what matters here. */
const SNAPSHOT = [
  'shopt -s expand_aliases',
  "alias pytest='echo ALIASED pytest'",
  "alias ls='ls -F'",
  'git() { echo "FUNCTION git $*"; }',
  'npm() { echo "FUNCTION npm $*"; return 3; }',
  '',
].join('\n');

/** What Claude Code runs for one Bash tool call. */
function claudeShell(command: string, snapshot: string, cwd: string, env: Record<string, string>) {
  const quoted = `'${command.replaceAll("'", `'"'"'`)}'`;
  const line = `source ${snapshot} 2>/dev/null || true && eval ${quoted} < /dev/null`;
  const result = spawnSync('/bin/bash', ['-c', line], { cwd, env, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('rewritten lines keep the shell snapshot’s aliases and functions', () => {
  it.each([
    ['pytest -q', 'ALIASED pytest -q'],
    ['git status', 'FUNCTION git status'],
    ['cd . && git log --oneline', 'FUNCTION git log --oneline'],
    ['npm test 2>&1 | tail -5', 'FUNCTION npm test'],
    ['npm test', 'FUNCTION npm test'],
  ])('%s', (command, expected) => {
    const project = tempDir();
    buildFixtureRepo(project);
    const snapshot = join(tempDir(), 'snapshot-bash.sh');
    writeFileSync(snapshot, SNAPSHOT);
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: project, LANG: 'C.UTF-8', ...GIT_ENV, TOKENLESS_DATA_DIR: tempDir() };
    const planned = runCli(['rewrite', command, '--json'], { env });
    const plan = JSON.parse(planned.stdout) as { command: string | null };
    expect(plan.command).not.toBeNull();
    const raw = claudeShell(command, snapshot, project, env);
    const rewritten = claudeShell(plan.command ?? '', snapshot, project, env);
    expect(raw.stdout).toContain(expected);
    expect(rewritten).toEqual(raw);
  });

  it('an aliased ls keeps its alias, a plain program is still filtered', () => {
    const project = tempDir();
    buildFixtureRepo(project);
    const snapshot = join(tempDir(), 'snapshot-bash.sh');
    writeFileSync(snapshot, SNAPSHOT);
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: project, LANG: 'C.UTF-8', ...GIT_ENV, TOKENLESS_DATA_DIR: tempDir() };
    const line = (command: string) => (JSON.parse(runCli(['rewrite', command, '--json'], { env }).stdout) as { command: string }).command;
    const raw = claudeShell('ls', snapshot, project, env);
    expect(claudeShell(line('ls'), snapshot, project, env)).toEqual(raw);
    // `ls -F` marks directories with a slash: the alias ran.
    expect(raw.stdout).toContain('lib/');
    // Without the snapshot, the same rewritten line runs the wrapper (git is a program on disk).
    const bare = spawnSync('/bin/bash', ['-c', line('git status')], { cwd: project, env, encoding: 'utf8' });
    expect(bare.status).toBe(0);
    expect(bare.stdout).not.toContain('FUNCTION');
  });
});
