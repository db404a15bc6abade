/**
 * Differential of every Bash command line in the shared corpus (issue 15): each distinct line of the Claude Code
 * transcripts, of the corpus cases' cmd.txt and the hand-written tricky lines (test/fixtures/permission-lines.json,
 * the permission differential's list) that pre_tool rewrites runs raw and rewritten in real bash, each in a
 * fresh scratch copy of the fixture project at the same path, with HOME and TMPDIR inside the scratch dir and the
 * network tools shadowed by stubs. Exit status and file effects (project, git state, HOME, TMPDIR) must agree.
 * The lines whose every wrapped name the shell snapshot defines also run in Claude Code's own shell form
 * (`source SNAPSHOT … && eval 'LINE' < /dev/null`) with a snapshot of aliases and functions: the functions record
 * each call, and raw and rewritten must call them alike.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { planCommand } from '../../src/runtime/pre-tool.ts';
import { Runtime } from '../../src/runtime/runtime.ts';
import { CLAUDE_CODE_REWRITE } from '../../src/runtime/wrap-policy.ts';
import { launcherCommand, LAUNCHER_FILE } from '../../src/shell/launcher.ts';
import { shellQuote } from '../../src/shell/quote.ts';
import { CLI, runCli } from '../helpers/cli.ts';
import { buildFixtureRepo } from '../helpers/fixture-repo.ts';
import { Scratch, offlineBin, pool, runBash, type BashOutcome } from '../helpers/bash-differential.ts';
import { PROJECT_PLACEHOLDER, corpusLines, exclusionReason } from '../helpers/differential-lines.ts';

const SESSION = 'differential-transcripts';
const WORKERS = 2;
const RUN_TIMEOUT_MS = 20_000;
/** The npm build calls node on the bundle explicitly: the same prefix `tokenless rewrite` prints (src/shell/wrapper-command.ts). */
// What the built CLI's hooks insert: the launcher next to the bundle, then node and the bundle.
const WRAPPER = launcherCommand(join(dirname(CLI), LAUNCHER_FILE), process.execPath, CLI);
const ATTRIBUTION = { TOKENLESS_AGENT_ID: 'cli', TOKENLESS_SESSION_ID: SESSION };

/** Aliases and functions as a Claude Code shell snapshot holds them; the functions log each call to $SNAPSHOT_TRACE. */
const SNAPSHOT = [
  'shopt -s expand_aliases',
  "alias ls='ls -F'",
  "alias grep='grep --color=never'",
  'git() { printf "git %s\\n" "$*" >> "$SNAPSHOT_TRACE"; command git "$@"; }',
  'find() { printf "find %s\\n" "$*" >> "$SNAPSHOT_TRACE"; command find "$@"; }',
  'npm() { printf "npm %s\\n" "$*" >> "$SNAPSHOT_TRACE"; command npm "$@"; }',
  '',
].join('\n');
const SHADOWED = new Set(['ls', 'grep', 'git', 'find', 'npm']);

/** What the planner does with each corpus line, decided once at collection (in process: the code `tokenless rewrite` runs). */
const planDir = mkdtempSync(join(tmpdir(), 'tokenless-transcripts-plan-'));
const planner = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: planDir }));
const LINES = corpusLines().map((line) => {
  const excluded = exclusionReason(line.command);
  // As Claude Code's hook plans it: every command, unknown programs included (issue 22).
  const plan = planCommand(line.command, planner, { wrapperCommand: WRAPPER, ...CLAUDE_CODE_REWRITE }, ATTRIBUTION);
  return { ...line, excluded, rewritten: plan.command, guards: plan.guards.map((guard) => guard.name) };
});
planner.close();
rmSync(planDir, { recursive: true, force: true });
const REWRITTEN = LINES.filter((line) => line.rewritten !== null);
const RUN = REWRITTEN.filter((line) => line.excluded === null);
/**
 * The snapshot subset: lines whose every guarded name the snapshot defines (so nothing may be wrapped), every
 * third of them to keep the suite's time in bounds.
 */
const IN_SNAPSHOT = RUN.filter((line) => line.guards.every((name) => SHADOWED.has(name))).filter((_, index) => index % 3 === 0);

interface Pair {
  readonly raw: Run;
  readonly rewritten: Run;
}
interface Run {
  readonly outcome: BashOutcome;
  readonly effects: string;
  readonly trace: string;
}

/** Test runners and timers print durations, and git random temp names, that differ between any two runs. */
function withoutTimings(text: string): string {
  return text
    .replace(/duration_ms:? [\d.]+/g, 'duration_ms N')
    .replace(/\(\d+(\.\d+)?m?s\)/g, '(Nms)')
    .replace(/^(real|user|sys)\t\d+m[\d.]+s$/gm, '$1\tN')
    // git names the temporary files it hands an external diff at random (mkstemp).
    .replace(/git-blob-[A-Za-z0-9]{6}/g, 'git-blob-XXXXXX')
    // Each run gets a fresh copy of the project: `ls -l` shows when the copy (and the scratch dir around it) was
    // made, which differs between the two runs; the file effects are compared on their own.
    .replace(/ [A-Z][a-z]{2} [ \d]\d ( \d{4}|\d\d:\d\d) /g, ' Mon DD HH:MM ');
}

describe('every rewritten corpus command line behaves like the original in real bash', () => {
  let root = '';
  let template = '';
  let bin = '';
  let snapshotFile = '';
  let scratches: Scratch[] = [];
  const plain = new Map<string, Pair>();
  const claude = new Map<string, Pair>();

  const env = (scratch: Scratch, worker: number): Record<string, string> => ({
    ...scratch.env(bin),
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    PYTHONDONTWRITEBYTECODE: '1',
    SNAPSHOT_TRACE: join(scratch.root, 'trace.log'),
    TOKENLESS_DATA_DIR: join(root, `data-${worker}`),
    TOKENLESS_SESSION_ID: SESSION,
  });

  const runOnce = async (scratch: Scratch, worker: number, line: string, snapshot: string | null): Promise<Run> => {
    scratch.reset(template);
    const trace = join(scratch.root, 'trace.log');
    rmSync(trace, { force: true });
    // A transcript's project root names the scratch project; the rewrite kept every byte, so it is replaced alike.
    const here = line.split(PROJECT_PLACEHOLDER).join(scratch.project);
    const typed = snapshot === null ? here : `source ${snapshot} 2>/dev/null || true && eval ${shellQuote(here)} < /dev/null`;
    const outcome = await runBash(typed, { cwd: scratch.project, env: env(scratch, worker), timeoutMs: RUN_TIMEOUT_MS });
    return { outcome, effects: scratch.effects(), trace: existsSync(trace) ? readFileSync(trace, 'utf8') : '' };
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'tokenless-transcripts-'));
    template = join(root, 'template');
    mkdirSync(template);
    buildFixtureRepo(template);
    bin = offlineBin(join(root, 'bin'));
    const snapshot = join(root, 'snapshot-bash.sh');
    snapshotFile = snapshot;
    writeFileSync(snapshot, SNAPSHOT);
    scratches = Array.from({ length: WORKERS }, (_, worker) => new Scratch(join(root, `w${worker}`, 'scratch')));
    const jobs = [...RUN.map((line) => ({ line, snapshot: null as string | null })), ...IN_SNAPSHOT.map((line) => ({ line, snapshot }))];
    await pool(jobs, WORKERS, async ({ line, snapshot: using }, worker) => {
      const scratch = scratches[worker] as Scratch;
      const raw = await runOnce(scratch, worker, line.command, using);
      const rewritten = await runOnce(scratch, worker, line.rewritten ?? line.command, using);
      (using === null ? plain : claude).set(line.command, { raw, rewritten });
    });
  }, 600_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('the in-process plans are the ones `tokenless rewrite` prints', () => {
    for (const line of RUN.slice(0, 5)) {
      const printed = runCli(['rewrite', line.command, '--json'], { env: { TOKENLESS_DATA_DIR: join(root, 'cli-data'), ...ATTRIBUTION } });
      expect((JSON.parse(printed.stdout) as { command: string | null }).command).toBe(line.rewritten);
    }
  });

  it('the comparison sees a changed effect, and the snapshot really shadows the names', async () => {
    const scratch = scratches[0] as Scratch;
    const base = await runOnce(scratch, 0, 'git status', null);
    const touched = await runOnce(scratch, 0, 'git status; touch extra.txt', null);
    expect(touched.effects).not.toBe(base.effects);
    const aliased = await runOnce(scratch, 0, 'ls && git log --oneline -n 1', snapshotFile);
    expect(aliased.outcome.stdout.toString('utf8')).toContain('lib/');
    expect(aliased.trace).toBe('git log --oneline -n 1\n');
  });

  it('covers the corpus: counts of lines, rewritten lines and exclusions', () => {
    const excluded = REWRITTEN.filter((line) => line.excluded !== null);
    // Printed so a run shows what was compared and what was set aside, and why.
    console.info(
      `corpus lines ${LINES.length}, rewritten ${REWRITTEN.length}, run ${RUN.length}, in the snapshot shell ${IN_SNAPSHOT.length}, excluded ${excluded.length}:\n` +
        excluded.map((line) => `  ${line.excluded}: ${line.command.split('\n')[0]?.slice(0, 100)}`).join('\n'),
    );
    expect(LINES.length).toBeGreaterThanOrEqual(550);
    expect(RUN.length).toBeGreaterThanOrEqual(250);
  });

  const compare = (pair: Pair | undefined): void => {
    expect(pair, 'ran').toBeDefined();
    if (pair === undefined) return;
    const { raw, rewritten } = pair;
    expect(raw.outcome.timedOut, 'the raw run finished').toBe(false);
    expect({ status: rewritten.outcome.status, signal: rewritten.outcome.signal, timedOut: rewritten.outcome.timedOut }).toEqual({
      status: raw.outcome.status,
      signal: raw.outcome.signal,
      timedOut: false,
    });
    expect(rewritten.effects).toBe(raw.effects);
    expect(rewritten.trace).toBe(raw.trace);
  };

  it.each(RUN.map((line) => [line.command.split('\n')[0]?.slice(0, 120) ?? '', line.command] as const))('%s', (_title, command) => {
    compare(plain.get(command));
  });

  describe("in Claude Code's shell form with a snapshot of aliases and functions", () => {
    it.each(IN_SNAPSHOT.map((line) => [line.command.split('\n')[0]?.slice(0, 120) ?? '', line.command] as const))('%s', (_title, command) => {
      const pair = claude.get(command);
      compare(pair);
      // Every wrapped name is an alias or function here, so nothing may be wrapped: the output is the raw line's.
      if (pair !== undefined) {
        expect(withoutTimings(pair.rewritten.outcome.stdout.toString('utf8'))).toBe(withoutTimings(pair.raw.outcome.stdout.toString('utf8')));
        expect(withoutTimings(pair.rewritten.outcome.stderr.toString('utf8'))).toBe(withoutTimings(pair.raw.outcome.stderr.toString('utf8')));
      }
    });
  });
});
