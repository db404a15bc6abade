import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fdFact, findTaskOutput } from '../../../commands/shared/run-fds.ts';
import { ATTRIBUTION_VARS, SAVED_PREFIX, childEnv } from '../../../commands/run.ts';
import { agentReads, fileRunRefusal, inheritedFds, launchArgv, planStdio, signalOfStatus, type FdFact } from '../../../src/runtime/run-stdio.ts';
import { ROOT } from '../../helpers/root.ts';

const SESSION = '60c0a4e0-1260-423c-b851-d0c4d6879973';
// The path Claude Code 2.1.332 gave a Bash command as fds 1 and 2 (FINDINGS.md, measured with the real client).
const TASK_FILE = `/tmp/claude-0/-work-project/${SESSION}/tasks/bzncul9oz.output`;

const fact = (overrides: Partial<FdFact>): FdFact => ({ fd: 1, kind: 'pipe', dev: 1, ino: 1, link: null, access: null, cloexec: null, ...overrides });

describe('planStdio', () => {
  it('captures a pipe, and gives the program one pipe when fds 1 and 2 are the same output', () => {
    expect(planStdio(fact({ ino: 1 }), fact({ fd: 2, ino: 2 }), [])).toEqual({ mode: 'capture', merged: false, stderr: 'capture' });
    expect(planStdio(fact({ ino: 1 }), fact({ fd: 2, ino: 1 }), [])).toEqual({ mode: 'capture', merged: true, stderr: 'capture' });
  });

  it("reads Claude Code's task output file as the agent's, any other regular file as the user's", () => {
    const task = fact({ kind: 'file', ino: 7, link: TASK_FILE });
    expect(planStdio(task, { ...task, fd: 2 }, [SESSION])).toMatchObject({ mode: 'capture', merged: true });
    expect(planStdio(task, { ...task, fd: 2 }, ['another-session']).mode).toBe('passthrough');
    expect(planStdio(fact({ kind: 'file', link: '/work/project/out.txt' }), fact({ fd: 2, ino: 9 }), [SESSION]).mode).toBe('passthrough');
  });

  it('passes a terminal or /dev/null through, and leaves a stderr the agent does not read to the program', () => {
    expect(planStdio(fact({ kind: 'char', link: '/dev/pts/0' }), fact({ fd: 2, kind: 'char', link: '/dev/pts/0' }), []).mode).toBe('passthrough');
    expect(planStdio(null, null, []).mode).toBe('passthrough');
    expect(planStdio(fact({ ino: 1 }), fact({ fd: 2, kind: 'char', ino: 4, link: '/dev/null' }), [])).toEqual({ mode: 'capture', merged: false, stderr: 'inherit' });
  });

  it('does not take an empty session id as a match', () => {
    expect(agentReads(fact({ kind: 'file', link: '/tmp/x//tasks/a.output' }), [''])).toBe(false);
  });
});

describe('inheritedFds', () => {
  // The fds Node 20 held at start-up next to two the shell handed on (5 and 17), as /proc showed them.
  const facts: FdFact[] = [
    fact({ fd: 3, link: 'anon_inode:[eventpoll]', cloexec: true }),
    fact({ fd: 4, link: 'pipe:[100]', access: 0, cloexec: true }),
    fact({ fd: 5, kind: 'file', link: '/work/f5.txt', access: 1, cloexec: true }),
    fact({ fd: 6, link: 'pipe:[100]', access: 1, cloexec: true }),
    fact({ fd: 9, link: 'anon_inode:[eventfd]', cloexec: true }),
    fact({ fd: 12, link: 'pipe:[200]', access: 1, cloexec: true }),
    fact({ fd: 17, kind: 'file', link: '/work/f17.txt', access: 1, cloexec: false }),
    fact({ fd: 19, kind: 'char', link: '/dev/null', access: 0, cloexec: true }),
    fact({ fd: 251, link: 'pipe:[300]', access: 1, cloexec: false }),
  ];

  it("keeps the line's descriptors and drops Node's own", () => {
    expect(inheritedFds(facts)).toEqual([5, 12, 17, 251]);
  });

  it('keeps a duplicate of a pipe end (exec 3>&1 when fd 1 is a pipe)', () => {
    expect(inheritedFds([fact({ fd: 3, link: 'pipe:[5]', access: 1 }), fact({ fd: 1, link: 'pipe:[5]', access: 1 })])).toEqual([3]);
  });
});

describe('launchArgv', () => {
  it('execs the program in place behind setpriv and, for merged output, sh', () => {
    expect(launchArgv(['git', 'status'], { merged: false, setpriv: null })).toEqual(['git', 'status']);
    expect(launchArgv(['git', 'status'], { merged: true, setpriv: '/usr/bin/setpriv' })).toEqual([
      '/usr/bin/setpriv', '--pdeathsig', 'KILL', '--', '/bin/sh', '-c', 'exec "$@" 2>&1', 'sh', 'git', 'status',
    ]);
  });
});

describe('commands/launch.sh and childEnv agree', () => {
  const script = readFileSync(join(ROOT, 'commands', 'launch.sh'), 'utf8');

  it('saves under the prefix childEnv restores, and gives the program its variables back unchanged', () => {
    expect(script).toContain(`export ${SAVED_PREFIX}$name=`);
    const env = childEnv({ [`${SAVED_PREFIX}NODE_OPTIONS`]: '--require ./side.js', TOKENLESS_SESSION_ID: 's', PATH: '/bin' });
    expect(env).toEqual({ NODE_OPTIONS: '--require ./side.js', PATH: '/bin' });
  });

  it('drops the same attribution variables when it runs the program itself', () => {
    const unset = /unset (TOKENLESS_[A-Z_ ]+)\n/.exec(script)?.[1]?.trim().split(/\s+/) ?? [];
    expect([...unset].sort()).toEqual([...ATTRIBUTION_VARS].sort());
  });
});

describe('findTaskOutput (where /proc cannot name the file)', () => {
  it("finds Claude Code's task file by device and inode, and nothing for another file", () => {
    const root = mkdtempSync(join(tmpdir(), 'tokenless-task-'));
    try {
      const tasks = join(root, 'claude-0', '-work-project', SESSION, 'tasks');
      mkdirSync(tasks, { recursive: true });
      writeFileSync(join(tasks, 'other.output'), '');
      const path = join(tasks, 'bzncul9oz.output');
      const fd = openSync(path, 'a');
      const outside = openSync(join(root, 'out.txt'), 'a');
      try {
        const task = { ...(fdFact(fd) ?? fact({})), link: null };
        expect(findTaskOutput(task, [SESSION], { CLAUDE_CODE_TMPDIR: root })).toBe(path);
        expect(findTaskOutput(task, ['another-session'], { CLAUDE_CODE_TMPDIR: root })).toBeNull();
        expect(findTaskOutput({ ...(fdFact(outside) ?? fact({})), link: null }, [SESSION], { CLAUDE_CODE_TMPDIR: root })).toBeNull();
      } finally {
        closeSync(fd);
        closeSync(outside);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('signalOfStatus and fileRunRefusal (the launcher fast path)', () => {
  const signals = { SIGKILL: 9, SIGTERM: 15, SIGPIPE: 13 };

  it('reads 128 + N as signal N, anything else as an exit code', () => {
    expect(signalOfStatus(137, signals)).toBe('SIGKILL');
    expect(signalOfStatus(141, signals)).toBe('SIGPIPE');
    expect(signalOfStatus(128, signals)).toBeNull();
    expect(signalOfStatus(1, signals)).toBeNull();
    expect(signalOfStatus(200, signals)).toBeNull();
  });

  it('replaces only a short run that appended enough, to a file that did not shrink', () => {
    const limits = { minBytes: 1024, streamAfterMs: 20_000 };
    expect(fileRunRefusal({ start: 10, size: 2000, elapsedMs: 50 }, limits)).toBeNull();
    expect(fileRunRefusal({ start: 10, size: 500, elapsedMs: 50 }, limits)).toMatch(/too little/);
    expect(fileRunRefusal({ start: 3000, size: 2000, elapsedMs: 50 }, limits)).toMatch(/shrank/);
    expect(fileRunRefusal({ start: 0, size: 5000, elapsedMs: 25_000 }, limits)).toMatch(/long run/);
    expect(fileRunRefusal({ start: 0, size: 5000, elapsedMs: null }, limits)).toMatch(/long run/);
    expect(fileRunRefusal({ start: 0, size: 1, elapsedMs: 5 }, { minBytes: 0, streamAfterMs: 20_000 })).toBeNull();
    expect(fileRunRefusal({ start: 1, size: 1, elapsedMs: 5 }, { minBytes: 0, streamAfterMs: 20_000 })).toMatch(/too little/);
  });
});
