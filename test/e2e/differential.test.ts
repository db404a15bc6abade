/**
 * Differential test of pre_tool rewriting (issue 3): each command line runs raw and rewritten in a real bash, in
 * identical fresh copies of a small git project at the same path. Exit codes and file-system effects must be
 * identical; untouched commands must print identical bytes; every marker the rewritten run printed must retrieve
 * the raw output byte-exact.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKER_SOURCE } from '../../src/store/marker.ts';
import { runCli } from '../helpers/cli.ts';
import { BASE_COMMANDS } from '../helpers/differential-lines.ts';
import { GIT_ENV, buildFixtureRepo, copyFixture } from '../helpers/fixture-repo.ts';
const SESSION = 'differential-session';

const COMMANDS = [
  ...BASE_COMMANDS,
  // Pipelines whose last stage is viewed with the producer's filter: same statuses with and without pipefail.
  'set -o pipefail; git log --oneline | head -2; echo rc=$?',
  'set -o pipefail; git log --bogus 2>&1 | tail -2; echo rc=$?',
  'git log --bogus 2>&1 | tail -2; echo rc=$?',
  'git log --oneline | grep -v zzz | sort | head -3',
  'npm test 2>&1 | tail -5; echo "${PIPESTATUS[@]}"',
  'set -o pipefail; npm test 2>&1 | tail -5; echo rc=$?',
] as const;

/** Test runners print durations that differ between two runs of the same tests. */
function withoutTimings(text: string): string {
  return text.replace(/duration_ms:? [\d.]+/g, 'duration_ms N').replace(/\(\d+(\.\d+)?ms\)/g, '(Nms)');
}

interface Outcome {
  readonly status: number | null;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly tree: string;
}

/** Files outside .git with their content hashes, plus git's own view of the index, HEAD and stash. */
function snapshot(dir: string): string {
  const lines: string[] = [];
  const walk = (path: string): void => {
    for (const name of readdirSync(path).sort()) {
      const full = join(path, name);
      if (relative(dir, full) === '.git') continue;
      const stat = lstatSync(full);
      if (stat.isDirectory()) {
        lines.push(`d ${relative(dir, full)}`);
        walk(full);
      } else lines.push(`f ${relative(dir, full)} ${createHash('sha256').update(readFileSync(full)).digest('hex')}`);
    }
  };
  walk(dir);
  const git = (...args: string[]): string => spawnSync('git', args, { cwd: dir, env: { ...process.env, ...GIT_ENV } }).stdout.toString();
  return [...lines, git('status', '--porcelain=v1'), git('rev-parse', 'HEAD'), git('stash', 'list')].join('\n');
}

describe('rewritten commands behave exactly like the originals in real bash', () => {
  let template = '';
  let parent = '';
  let work = '';
  let dataDir = '';
  const baseEnv = (): Record<string, string> => ({
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: parent,
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    ...GIT_ENV,
    TOKENLESS_DATA_DIR: dataDir,
    TOKENLESS_SESSION_ID: SESSION,
  });
  const fresh = (): void => {
    rmSync(work, { recursive: true, force: true });
    copyFixture(template, work);
    // The parent's mtime shows up as `..` in `ls -la`: pin it so both runs print the same listing.
    utimesSync(parent, new Date('2024-01-01T00:00:00Z'), new Date('2024-01-01T00:00:00Z'));
  };
  const runBash = (command: string): Outcome => {
    fresh();
    const result = spawnSync('bash', ['-c', command], { cwd: work, env: baseEnv(), input: '', maxBuffer: 64 * 1024 * 1024 });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, tree: snapshot(work) };
  };

  let root = '';
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'tokenless-differential-'));
    template = join(root, 'template');
    parent = join(root, 'runs');
    work = join(parent, 'project');
    dataDir = join(root, 'data');
    mkdirSync(template, { recursive: true });
    mkdirSync(parent, { recursive: true });
    buildFixtureRepo(template);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('covers at least 40 command lines', () => {
    expect(COMMANDS.length).toBeGreaterThanOrEqual(40);
  });

  it.each(COMMANDS)('%s', (command) => {
    const planned = runCli(['rewrite', command, '--json'], { env: baseEnv() });
    expect(planned.status).toBe(0);
    const plan = JSON.parse(planned.stdout) as { command: string | null };
    const raw = runBash(command);
    const rewritten = runBash(plan.command ?? command);

    expect(rewritten.status).toBe(raw.status);
    expect(rewritten.tree).toBe(raw.tree);
    if (plan.command === null) {
      expect(withoutTimings(rewritten.stdout.toString('utf8'))).toBe(withoutTimings(raw.stdout.toString('utf8')));
      expect(rewritten.stderr.toString()).toBe(raw.stderr.toString());
      return;
    }
    const shown = rewritten.stdout.toString('utf8') + rewritten.stderr.toString('utf8');
    for (const match of shown.matchAll(new RegExp(MARKER_SOURCE, 'g'))) {
      const retrieved = runCli(['retrieve', match[0]], { env: { TOKENLESS_DATA_DIR: dataDir, TOKENLESS_SESSION_ID: SESSION } });
      expect(retrieved.status).toBe(0);
      // One wrapped segment's raw output: a contiguous part of what the raw run printed (timings aside).
      const got = withoutTimings(retrieved.stdout);
      const inRaw = withoutTimings(raw.stdout.toString('utf8')).includes(got) || withoutTimings(raw.stderr.toString('utf8')).includes(got);
      expect(inRaw, `marker ${match[0]} retrieves raw output`).toBe(true);
    }
  });
});

/**
 * The wrapper itself (issue 15, items 2–7): each line runs raw and with `tokenless run --` in front of the marked
 * command (`@W `), as the rewrite inserts it (attribution variables, the launcher, our Node and bundle). Output is
 * small, so the view is the raw output: stdout, stderr (bash's own notices included), exit status and files must be
 * identical. The planner-based lines go through `tokenless rewrite` like the suite above.
 */
const RUN_CASES = [
  // 2. merged output keeps its order
  '@W make -s interleave 2>&1',
  'exec 2>&1; @W make -s interleave',
  '@W npm run -s build 2>&1',
  '@W make -s interleave 2>&1 | cat',
  '@W sh -c "echo out; echo err >&2; echo out2" 2>&1; echo rc=$?',
  // 3. output the line redirected is left alone
  'exec >out.txt; @W git status; cat out.txt >&2',
  'exec >out.txt 2>&1; @W make -s interleave',
  'exec 2>err.txt; @W make -s interleave; cat err.txt',
  '@W make -s interleave >/dev/null',
  'exec >/dev/null; @W git log --oneline',
  // 4. descriptors from 3 up reach the program
  'exec 3>fd3.txt; @W make -s fd3',
  'exec 4<input.txt; @W sh -c "cat <&4"',
  'exec 3>fd3.txt 20>fd20.txt; @W sh -c "echo a >&3; echo b >&20"',
  // Which of the line's own descriptors reach the program (a full listing would also show whatever the test runner
  // itself leaked into bash, which the wrapper cannot tell from Node's own below fd 17).
  'exec 5>f5.txt 17>f17.txt; @W sh -c \'for fd in 5 17; do [ -e /proc/$$/fd/$fd ] && echo has-$fd; done\'',
  'exec 3>&1; @W sh -c "echo via-3 >&3"',
  // 5. output printed before a kill is shown; the program dies with the wrapper
  '@W timeout -s KILL 2 sh -c "echo early; sleep 30"; echo rc=$?',
  '@W timeout 2 sh -c "echo early; sleep 30"; echo rc=$?',
  '@W sh -c "echo early; exec sleep 30" & pid=$!; sleep 2; kill -TERM $pid; wait $pid; echo rc=$?',
  '@W sleep 31.25 & pid=$!; sleep 2; kill -KILL $pid; wait $pid; sleep 0.5; ps -eo args | grep -c "^sleep 31.25$"',
  // 6. Node's variables act once, on the program; limits Node cannot start in still run the program
  'printf \'require("fs").appendFileSync("side.log", "x")\\n\' > side.js; NODE_OPTIONS="--require ./side.js" @W npm run -s build; cat side.log',
  // (the coverage file is named by pid and time: only the count is compared)
  'NODE_V8_COVERAGE=$PWD/cov @W node -e 0; ls cov | wc -l; rm -r cov',
  'NODE_OPTIONS=--no-warnings @W node -p process.env.NODE_OPTIONS',
  'ulimit -v 400000; @W echo still-runs; echo rc=$?',
  'ulimit -n 20; @W echo still-runs; echo rc=$?',
  // 7. a death by signal is one for the shell too (bash prints its notice)
  '@W sh -c "echo before; kill -SEGV \\$\\$"; echo rc=$?',
  '@W sh -c "kill -KILL \\$\\$"; echo rc=$?',
  '@W sh -c "kill -TERM \\$\\$"; echo rc=$?',
  '@W sh -c "kill -ABRT \\$\\$"; echo rc=$?',
  '@W sh -c "kill -PIPE \\$\\$"; echo rc=$?',
  '@W sh -c "kill -INT \\$\\$"; echo rc=$?',
  '@W sh -c "kill -USR1 \\$\\$"; echo rc=$?',
  // issue 30 on a pipe (this harness's own pipes are sockets, so opening /dev/stdout is checked in
  // wrapper-file-differential.test.ts instead): the wrapper lets go of its stdin, so the writer gets SIGPIPE as raw;
  // a background grandchild's later output still arrives
  'set -o pipefail; seq 1 200000 | @W head -2; echo rc=$?',
  "@W sh -c '(sleep 1; echo late) & echo started'; echo returned",
  // plain semantics
  '@W sh -c "exit 7"; echo rc=$?',
  '@W cat < input.txt',
  'printf "b\\na\\n" | @W sort',
  '@W no-such-program-xyz; echo rc=$?',
] as const;

/** Lines the planner rewrites itself whose semantics the cases above protect. */
const PLANNED_RUN_LINES = [
  'git status 2>&1',
  'exec 2>&1; git status',
  'exec >out.txt; git status; cat out.txt',
  'exec 3>fd3.txt; git status; echo done >&3; cat fd3.txt',
  'exec 3>fd3.txt; GIT_TRACE=3 git status; grep -c "built-in: git status" fd3.txt; rm fd3.txt',
  'NODE_OPTIONS="--no-deprecation" git log --oneline -n 2',
] as const;

const MAKEFILE = 'interleave:\n\t@echo step1; echo err1 >&2; echo step2; echo err2 >&2\nfd3:\n\t@echo to-fd3 >&3\n';
const BUILD_SCRIPT = "for (const line of ['compile a', 'warn b', 'compile c', 'error d']) (line.startsWith('compile') ? process.stdout : process.stderr).write(`${line}\\n`);\n";

describe('the wrapper keeps what the line does in real bash (issue 15)', () => {
  let root = '';
  let template = '';
  let work = '';
  let dataDir = '';
  let wrapper = '';
  const env = (): Record<string, string> => ({
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: root,
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    ...GIT_ENV,
    TOKENLESS_DATA_DIR: dataDir,
    TOKENLESS_SESSION_ID: SESSION,
  });
  const runBash = (command: string): Outcome => {
    rmSync(work, { recursive: true, force: true });
    copyFixture(template, work);
    const result = spawnSync('bash', ['-c', command], { cwd: work, env: env(), input: '', maxBuffer: 64 * 1024 * 1024, timeout: 60_000 });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, tree: snapshot(work) };
  };

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'tokenless-differential-run-'));
    template = join(root, 'template');
    work = join(root, 'runs', 'project');
    dataDir = join(root, 'data');
    mkdirSync(template, { recursive: true });
    mkdirSync(join(root, 'runs'), { recursive: true });
    buildFixtureRepo(template);
    writeFileSync(join(template, 'Makefile'), MAKEFILE);
    writeFileSync(join(template, 'build.js'), BUILD_SCRIPT);
    writeFileSync(join(template, 'input.txt'), 'first line\nsecond line\n');
    const pkg = JSON.parse(readFileSync(join(template, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    writeFileSync(join(template, 'package.json'), `${JSON.stringify({ ...pkg, scripts: { ...pkg.scripts, build: 'node build.js' } }, null, 2)}\n`);
    // The text the planner inserts in front of a wrapped command, taken from a real plan (the name check around it is
    // covered by the planned lines below and by shell-names.test.ts).
    const plan = JSON.parse(runCli(['rewrite', 'git status', '--json'], { env: env() }).stdout) as { insertions: { text: string }[] };
    wrapper = plan.insertions[0]?.text ?? '';
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('inserts the launcher that keeps Node variables for the program', () => {
    expect(wrapper).toMatch(/launch\.sh'? .* run -- $/);
  });

  it.each(RUN_CASES)('%s', (line) => {
    const raw = runBash(line.replaceAll('@W ', ''));
    const wrapped = runBash(line.replaceAll('@W ', wrapper));
    // bash names the command in its notices: the wrapped one has our prefix, and pids differ.
    const notices = (text: Buffer, prefix: string): string =>
      text.toString('utf8').replaceAll(prefix, '').replace(/^bash: line \d+: (?: *\d+ )?/gm, '');
    expect(wrapped.status).toBe(raw.status);
    expect(wrapped.tree).toBe(raw.tree);
    expect(wrapped.stdout.toString('utf8')).toBe(raw.stdout.toString('utf8'));
    expect(notices(wrapped.stderr, wrapper)).toBe(notices(raw.stderr, ''));
  });

  it.each(PLANNED_RUN_LINES)('planned: %s', (line) => {
    const plan = JSON.parse(runCli(['rewrite', line, '--json'], { env: env() }).stdout) as { command: string | null };
    expect(plan.command).not.toBeNull();
    const raw = runBash(line);
    const rewritten = runBash(plan.command ?? line);
    expect(rewritten.status).toBe(raw.status);
    expect(rewritten.tree).toBe(raw.tree);
    const shown = rewritten.stdout.toString('utf8') + rewritten.stderr.toString('utf8');
    const rawText = raw.stdout.toString('utf8') + raw.stderr.toString('utf8');
    const markers = [...shown.matchAll(new RegExp(MARKER_SOURCE, 'g'))];
    if (markers.length === 0) expect(shown).toBe(rawText);
    for (const [marker] of markers) {
      const retrieved = runCli(['retrieve', marker], { env: { TOKENLESS_DATA_DIR: dataDir, TOKENLESS_SESSION_ID: SESSION } });
      expect(retrieved.status).toBe(0);
      expect(rawText.includes(retrieved.stdout), `marker ${marker} retrieves raw output`).toBe(true);
    }
  });
});
