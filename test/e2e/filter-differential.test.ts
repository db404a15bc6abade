/**
 * `tokenless filter` is the offline twin of a rewritten line (issue 14, item 1): for each command line, the raw line
 * runs in real bash in a fresh copy of the fixture project, the rewritten line (`tokenless rewrite LINE --json`) runs
 * in an identical fresh copy, and `tokenless filter --command LINE` gets the raw run's stdout, stderr and exit code.
 * What filter prints must be what the rewritten run printed, retrieval markers' ids aside, and both runs must end
 * with the same exit status and file effects. A line whose output filter
 * cannot apportion to one wrapped segment must be declined, and then the test says which shape it is.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { buildFixtureRepo } from '../helpers/fixture-repo.ts';
import { Scratch, offlineBin, runBash, type BashOutcome } from '../helpers/bash-differential.ts';
import { BASE_COMMANDS, FILTER_SHAPES } from '../helpers/differential-lines.ts';

const SESSION = 'filter-differential';
const LINES = [...new Set<string>([...BASE_COMMANDS, ...FILTER_SHAPES])];

/**
 * Lines filter declines on purpose, with the reason it gives: their output comes from more than one place, so no one
 * filter can stand for the rewritten line (each wrapped segment prints its own view of its own output).
 */
const SEVERAL = /^several wrapped segments print/;
const UNWRAPPED_PRINTS = /^an unwrapped command may print too/;
const DECLINED: Readonly<Record<string, RegExp>> = {
  'git status && git log --oneline -n 2': SEVERAL,
  'git log --oneline -n 1 && git status': SEVERAL,
  'git status; git diff --stat': SEVERAL,
  'make clean && make': SEVERAL,
  'make; make': SEVERAL,
  'ls -la; git status': SEVERAL,
  // `echo` is not wrapped and prints: its line cannot be told from the wrapped command's in the merged capture.
  'git status && echo done': UNWRAPPED_PRINTS,
  'echo start && git status': UNWRAPPED_PRINTS,
  // A bare `echo` prints a newline after the wrapped view.
  'git diff HEAD~2 | head -30; echo': UNWRAPPED_PRINTS,
};

/** Marker ids, test-runner durations and the stash's keys differ between two runs of the same line. */
function normalise(text: string): string {
  return text
    .replace(/<<tokenless:[0-9a-f]+>>|<<tokenless:\d+>>/g, '<<tokenless:ID>>')
    .replace(/\[tokenless retrieve \d+\]/g, '[tokenless retrieve ID]')
    .replace(/duration_ms:? [\d.]+/g, 'duration_ms N')
    .replace(/\(\d+(\.\d+)?m?s\)/g, '(Nms)');
}

interface FilterAnswer {
  readonly output: string;
  readonly stderr: string;
  readonly filter: string | null;
  readonly reason?: string;
}

describe('tokenless filter prints what the rewritten line prints', () => {
  let root = '';
  let template = '';
  let bin = '';
  let scratch: Scratch;
  /** Lines whose view differs from the raw output: the comparison is about a real view there, not two copies. */
  const viewed: string[] = [];
  const declinedSeen: string[] = [];
  const env = (): Record<string, string> => ({
    ...scratch.env(bin),
    TOKENLESS_DATA_DIR: join(root, 'data'),
    TOKENLESS_SESSION_ID: SESSION,
    // `run` on a pipe streams raw once a program outlives its hold (0.5 s); `npm test` can take longer than that on
    // a loaded 2-core CI machine, and filter, which never sees timing, would then show a view the run did not.
    TOKENLESS_RUN_HOLD_MS: '20000',
  });
  const run = async (line: string): Promise<BashOutcome & { effects: string }> => {
    scratch.reset(template);
    const outcome = await runBash(line, { cwd: scratch.project, env: env(), timeoutMs: 30_000 });
    return { ...outcome, effects: scratch.effects() };
  };

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'tokenless-filter-differential-'));
    template = join(root, 'template');
    mkdirSync(template);
    buildFixtureRepo(template);
    // A Makefile whose two targets print enough for the make filter to shorten them.
    const steps = (verb: string): string => Array.from({ length: 60 }, (_, i) => `\t@echo "${verb} src/module${i}.c -o build/module${i}.o"\n`).join('');
    writeFileSync(join(template, 'Makefile'), `all:\n${steps('cc -O2 -c')}\t@echo "src/module7.c:12:3: warning: unused variable x" >&2\nclean:\n${steps('rm -f')}`);
    bin = offlineBin(join(root, 'bin'));
    scratch = new Scratch(join(root, 'runs', 'scratch'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('covers the differential lines and the shapes issue 14 names', () => {
    expect(LINES.length).toBeGreaterThanOrEqual(90);
    for (const shape of ['du -sh *', 'wc -l lib/*.js', 'make clean && make', 'cd lib && ls', 'find . -type f -not -path "./.git/*" | head']) {
      expect(LINES).toContain(shape);
    }
  });

  it.each(LINES)('%s', async (line) => {
    const planned = runCli(['rewrite', line, '--json'], { env: env() });
    expect(planned.status).toBe(0);
    const plan = JSON.parse(planned.stdout) as { command: string | null };
    const raw = await run(line);
    const rewritten = plan.command === null ? raw : await run(plan.command);
    // The rewritten line is the raw line to the shell: same exit status, same file effects.
    expect({ status: rewritten.status, effects: rewritten.effects }).toEqual({ status: raw.status, effects: raw.effects });
    const stderrFile = join(root, 'raw-stderr');
    writeFileSync(stderrFile, raw.stderr);
    const filtered = runCli(['filter', '--command', line, '--exit-code', String(raw.status ?? 1), '--stderr', stderrFile, '--json'], {
      env: env(),
      input: raw.stdout,
      cwd: scratch.project,
    });
    expect(filtered.status, filtered.stderr).toBe(0);
    const answer = JSON.parse(filtered.stdout) as FilterAnswer;
    const declined = DECLINED[line];
    if (declined !== undefined) {
      expect(answer.reason).toMatch(declined);
      // Declining is needed only where the rewritten run shows a view filter could not reproduce.
      expect(normalise(rewritten.stdout.toString('utf8'))).not.toBe(normalise(raw.stdout.toString('utf8')));
      declinedSeen.push(line);
      return;
    }
    if (answer.output !== raw.stdout.toString('utf8') || answer.stderr !== raw.stderr.toString('utf8')) viewed.push(line);
    expect(normalise(answer.output)).toBe(normalise(rewritten.stdout.toString('utf8')));
    expect(normalise(answer.stderr)).toBe(normalise(rewritten.stderr.toString('utf8')));
    // A line the planner leaves as typed is declined with that reason, and its output passes unchanged.
    if (plan.command === null) expect(answer.reason).toMatch(/^not rewritten/);
  });

  it('compares real views on most lines, and declines only the shapes listed', () => {
    console.info(`filter differential: ${LINES.length} lines, ${viewed.length} with a view, ${declinedSeen.length} declined`);
    expect(viewed.length).toBeGreaterThanOrEqual(30);
    expect(declinedSeen.sort()).toEqual(Object.keys(DECLINED).sort());
  });
});
