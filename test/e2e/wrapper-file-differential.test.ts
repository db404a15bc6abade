/**
 * The wrapper in Claude Code's own shell form (issue 30, items 7–14): `bash -c "source SNAPSHOT && eval 'LINE' <
 * /dev/null"` with fds 1 and 2 one append-only task output file under `…/<session>/tasks/`. Each line runs raw and
 * with the wrapper in front of the marked command (`@W `, `@V ` for a pipeline's last stage viewed as `git log`), or
 * as `tokenless rewrite` plans it (`planned:`). With views off (TOKENLESS_RUN_VIEW_MIN_BYTES huge) the file must hold
 * the raw bytes exactly (bash's notices name the command, so the wrapper's prefix and pids are taken out first) and
 * the status must be the raw one; the timed cases also check when the line returns and what the file holds while
 * the program still runs or after it was killed.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellQuote } from '../../src/shell/quote.ts';
import { MARKER_SOURCE } from '../../src/store/marker.ts';
import { pool } from '../helpers/bash-differential.ts';
import { runCli } from '../helpers/cli.ts';
import { GIT_ENV, buildFixtureRepo, copyFixture } from '../helpers/fixture-repo.ts';

const SESSION = '0b0c2a55-8f1e-4f55-9c3e-5d1c7e0e7a30';
const MAKEFILE = 'drip:\n\t@for i in 1 2 3 4 5 6; do echo line $$i; sleep 0.2; done\nwarn:\n\t@echo warning >>/dev/stderr; echo done\n';
// A Node program that writes 20,000 short lines and exits at once: async writes to a socket are lost at exit.
const MANY_LINES = "for (let i = 0; i < 20000; i++) console.log('ok ' + i); console.log('FAILED: 1 test'); process.exit(1)";

const LINES = [
  // 7. nothing lost at exit
  `@W node -e "${MANY_LINES}"; echo rc=$?`,
  `node -e "${MANY_LINES}" 2>&1 | @V tail -3; echo rc=$?`,
  // 8. the program's stdout and stderr can be opened by name
  '@W make -s warn',
  '@W sh -c \'echo to-stdout >>/dev/stdout; echo to-fd1 >>/proc/self/fd/1; echo to-stderr >>/dev/stderr\'; echo rc=$?',
  `@W node -e "require('fs').appendFileSync('/dev/stdout', 'direct\\n')"; echo rc=$?`,
  '@W sh -c \'[ -p /dev/stdout ] || [ -f /dev/stdout ] && echo not-a-socket\'',
  // 12. limits Node cannot start in, also for a pipeline's last stage
  'ulimit -v 400000; git log --oneline | @V tail -2; echo rc=$?',
  'ulimit -n 20; git log --oneline | @V head -2; echo rc=$?',
  // 13. the wrapper does not hold the pipe's read end: the writer gets SIGPIPE as raw
  'set -o pipefail; make -s drip | @V head -1; echo rc=$?',
  'set -o pipefail; make -s drip 2>&1 | @V head -1; echo "${PIPESTATUS[@]}"',
  // (the producer writes more than a pipe holds, so raw it is always still writing when head exits)
  'set -euo pipefail; seq 1 200000 | @V head -2; echo after',
  'seq 1 200000 | @V head -2; echo "${PIPESTATUS[@]}"',
  // 14. the shell's own words
  '@W sh -c \'kill -KILL $$\'; echo rc=$?',
  '@W sh -c \'kill -SEGV $$\'; echo rc=$?',
  '@W sh -c "exit 3"; echo rc=$?',
  'printf "b\\na\\n" | @W sort',
  '@W no-such-program-xyz; echo rc=$?',
  'planned: PATH=/nonexistent git status; echo rc=$?',
  'planned: git status; git log --oneline -n 2',
  'planned: ulimit -v 400000; git log --oneline | tail -2',
  'planned: set -o pipefail; make -s drip | head -1; echo rc=$?',
] as const;

// $BASH_COMMAND and xtrace would name the rewritten line (issue 30 item 14): `tokenless rewrite` leaves these as typed.
const AS_TYPED = [
  "trap 'echo ERR:$BASH_COMMAND' ERR; git log --oneline no-such-rev; echo rc=$?",
  'set -x; git status; git log --oneline -n 1',
  'set -euxo pipefail; git log --oneline | tail -1',
  'set -vx; git status',
  'shopt -so xtrace; git status',
  "trap 'echo exit:$BASH_COMMAND' EXIT; git status",
  'git status; echo "$BASH_COMMAND"',
  'BASH_XTRACEFD=2 git status',
  'git status; echo $SHELLOPTS $BASHOPTS',
] as const;

interface Run {
  readonly status: number | null;
  readonly output: string;
  readonly ms: number;
}

describe("the wrapper in Claude Code's shell form, fds 1 and 2 one task output file (issue 30)", () => {
  let root = '';
  let template = '';
  let snapshot = '';
  const prefix = { wrap: '', viewAs: '' };
  const env = (extra: Record<string, string> = {}): Record<string, string> => ({
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: root,
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    ...GIT_ENV,
    TOKENLESS_DATA_DIR: join(root, 'data'),
    TOKENLESS_SESSION_ID: SESSION,
    CLAUDE_CODE_SESSION_ID: SESSION,
    ...extra,
  });

  /** Runs LINE as Claude Code does; `during` is called while it runs, with the output file's path. */
  const run = (worker: number, line: string, options: { env?: Record<string, string>; during?: (file: string, pid: number) => Promise<void> } = {}): Promise<Run> => {
    const work = join(root, `w${worker}`, 'project');
    rmSync(work, { recursive: true, force: true });
    copyFixture(template, work);
    writeFileSync(join(work, 'Makefile'), MAKEFILE);
    const tasks = join(root, `w${worker}`, 'claude-0', 'project', SESSION, 'tasks');
    mkdirSync(tasks, { recursive: true });
    const file = join(tasks, 'task.output');
    writeFileSync(file, '');
    const fd = openSync(file, 'a');
    const started = Date.now();
    const child = spawn('/bin/bash', ['-c', `source ${snapshot} && eval ${shellQuote(line)} < /dev/null`], {
      cwd: work,
      env: options.env ?? env(),
      stdio: ['ignore', fd, fd],
      detached: true,
    });
    closeSync(fd);
    const killer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 30_000);
    const during = options.during?.(file, child.pid ?? 0);
    return new Promise((resolve) => {
      child.on('exit', (status) => {
        const ms = Date.now() - started;
        clearTimeout(killer);
        void Promise.resolve(during).then(() => resolve({ status, output: readFileSync(file, 'utf8'), ms }));
      });
    });
  };

  const wrapped = (line: string): string => line.replaceAll('@W ', prefix.wrap).replaceAll('@V ', prefix.viewAs);
  const raw = (line: string): string => line.replaceAll('@W ', '').replaceAll('@V ', '');
  const plan = (line: string): string => (JSON.parse(runCli(['rewrite', line, '--json'], { env: env() }).stdout) as { command: string | null }).command ?? line;
  /** bash names the command and its pid in a notice: the wrapped one has our prefix. */
  const notices = (text: string): string =>
    [prefix.wrap, prefix.viewAs].reduce((acc, p) => acc.replaceAll(p, ''), text).replace(/^(\S*bash: line \d+: +)\d+ /gm, '$1');

  const results = new Map<string, { raw: Run; wrapped: Run; line: string }>();
  const noViews = env({ TOKENLESS_RUN_VIEW_MIN_BYTES: '1000000000' });

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'tokenless-wrapper-file-'));
    template = join(root, 'template');
    mkdirSync(template, { recursive: true });
    buildFixtureRepo(template);
    snapshot = join(root, 'snapshot.sh');
    writeFileSync(snapshot, "alias ll='ls -l'\nshopt -s expand_aliases\n");
    const insertion = (line: string): string =>
      (JSON.parse(runCli(['rewrite', line, '--json'], { env: env() }).stdout) as { insertions: { text: string }[] }).insertions[0]?.text ?? '';
    prefix.wrap = insertion('git status');
    prefix.viewAs = insertion('git log --oneline | head -2');
    await pool(LINES, 2, async (line, worker) => {
      const typed = line.startsWith('planned: ') ? line.slice('planned: '.length) : line;
      const rewritten = line.startsWith('planned: ') ? plan(typed) : wrapped(typed);
      results.set(line, { line: rewritten, raw: await run(worker, raw(typed), { env: noViews }), wrapped: await run(worker, rewritten, { env: noViews }) });
    });
  }, 300_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('uses the launcher and its --view-as form', () => {
    expect(prefix.wrap).toMatch(/launch\.sh'? .* run -- $/);
    expect(prefix.viewAs).toMatch(/run --view-as 'git log --oneline' -- $/);
  });

  it.each(AS_TYPED)('left as typed: %s', (line) => {
    expect(plan(line)).toBe(raw(line));
  });

  it.each(LINES)('%s', (line) => {
    const result = results.get(line);
    expect(result?.line, 'the line is wrapped').not.toBe(raw(line.replace(/^planned: /, '')));
    expect(result?.wrapped.status).toBe(result?.raw.status);
    expect(notices(result?.wrapped.output ?? '')).toBe(notices(result?.raw.output ?? ''));
  });

  it('7: a view of a large output keeps its last line and its marker retrieves every raw byte', async () => {
    const line = `@W node -e "${MANY_LINES}"`;
    const [rawRun, viewed] = [await run(0, raw(line)), await run(0, wrapped(line))];
    expect(viewed.status).toBe(1);
    expect(viewed.output).toContain('FAILED: 1 test');
    const [marker] = viewed.output.match(new RegExp(MARKER_SOURCE)) ?? [];
    expect(marker).toBeDefined();
    const retrieved = runCli(['retrieve', marker ?? ''], { env: env() });
    expect(retrieved.stdout).toBe(rawRun.output);
    expect(Buffer.byteLength(viewed.output)).toBeLessThan(Buffer.byteLength(rawRun.output) / 10);
  });

  it('9: a background grandchild holding stdout does not hold the line, and what it writes later lands in the file', async () => {
    const line = "@W sh -c '(sleep 2; echo late) & echo started'; echo returned";
    const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 2_600));
    const [rawRun, wrappedRun] = [await run(0, raw(line), { during: settle }), await run(1, wrapped(line), { during: settle })];
    expect(rawRun.ms).toBeLessThan(1_500);
    expect(wrappedRun.ms).toBeLessThan(1_500);
    expect(wrappedRun.output).toBe(rawRun.output);
    expect(wrappedRun.output).toBe('started\nreturned\nlate\n');
  });

  it('10 and 11: output streams from the first byte, and a group SIGKILL keeps what was written', async () => {
    const line = "@W sh -c 'echo ready on :3000; sleep 20'";
    const seen: string[] = [];
    const killed = await run(0, wrapped(line), {
      during: async (file, pid) => {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        seen.push(readFileSync(file, 'utf8'));
        process.kill(-pid, 'SIGKILL');
      },
    });
    expect(seen[0]).toBe('ready on :3000\n');
    expect(killed.output).toBe('ready on :3000\n');
  });

  // The same on the pipe path: the wrapper's stdout is a pipe (here to `cat`, which writes the task file; another
  // agent reads such a pipe itself), where Node holds output back for a view only briefly.
  const untilSeen = async (file: string, deadlineMs: number): Promise<number | null> => {
    const started = Date.now();
    while (Date.now() - started < deadlineMs) {
      if (readFileSync(file, 'utf8') !== '') return Date.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return null;
  };

  it('10 on a pipe: a line printed after 3 s reaches the reader within a second of it', async () => {
    const line = "@W sh -c 'sleep 3; echo ready on :3000; sleep 20' | cat";
    const seenAfter: (number | null)[] = [];
    const killed = await run(0, wrapped(line), {
      during: async (file, pid) => {
        seenAfter.push(await untilSeen(file, 6_000));
        process.kill(-pid, 'SIGKILL');
      },
    });
    expect(seenAfter[0]).not.toBeNull();
    expect(seenAfter[0]).toBeGreaterThanOrEqual(2_900);
    expect(seenAfter[0]).toBeLessThan(4_000);
    expect(killed.output).toBe('ready on :3000\n');
  });

  it('11 on a pipe: a group SIGKILL keeps what the program wrote, with and without stderr merged', async () => {
    const lines = ["@W sh -c 'echo ready on :3000; sleep 20' | cat", "@W sh -c 'echo ready on :3000; echo warn >&2; sleep 20' 2>&1 | cat"];
    const killed = await Promise.all(lines.map((line, worker) => run(worker, wrapped(line), {
      during: async (_file, pid) => {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        process.kill(-pid, 'SIGKILL');
      },
    })));
    expect(killed.map((result) => result.output)).toEqual(['ready on :3000\n', 'ready on :3000\nwarn\n']);
  });
});
