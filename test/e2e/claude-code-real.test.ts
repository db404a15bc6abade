/**
 * The real Claude Code client (2.1.332, installed by scripts/install-claude-code.sh) against our fake Anthropic server:
 * the same scripted session once with our hooks installed by `syt init` and once without (the baseline). Assertions
 * are on the request bodies the fake server received, i.e. on what the model saw.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateTokens } from '../../src/tokens/estimate.ts';
import { runCli } from '../helpers/cli.ts';
import { GIT_ENV } from '../helpers/fixture-repo.ts';
import { loadCorpusCase } from '../helpers/fixtures.ts';
import { ROOT } from '../helpers/root.ts';
import { startFakeAnthropic, type MessagesBody, type Script, type Turn } from './claude/fake-anthropic.ts';
import { claudeBinary, runClaude, seenResults, sessionDirs, sessionEnv, type SeenResult } from './claude/session.ts';

const CLAUDE = claudeBinary();
if (CLAUDE === null) console.warn('claude-code-real: Claude Code is not installed; run `bash scripts/install-claude-code.sh` (skipping)');
// The sessions run once for the whole file (beforeAll), so their directories live until afterAll.
const made: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'tokenless-claude-'));
  made.push(dir);
  return dir;
};

const EXPRESS_JSON = loadCorpusCase('data-npm-view-express-json').stdout;
const ISSUES_JSON = loadCorpusCase('data-jq-search-issues-fixtures').stdout;

/** A small project: a failing `npm test`, twenty sources full of TODOs, a large JSON data file, fixed git identity. */
function buildWorkTree(work: string): void {
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: work, env: { ...process.env, ...GIT_ENV }, stdio: 'ignore' });
  mkdirSync(join(work, 'src'), { recursive: true });
  mkdirSync(join(work, 'test'), { recursive: true });
  mkdirSync(join(work, 'data'), { recursive: true });
  writeFileSync(join(work, 'README.md'), '# demo\n');
  writeFileSync(join(work, 'package.json'), `${JSON.stringify({ name: 'demo', version: '1.0.0', private: true, scripts: { test: 'vitest run --reporter=verbose' } }, null, 2)}\n`);
  // The repository's own vitest, as an installed dev dependency: a real runner whose output our filters know.
  symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'));
  writeFileSync(join(work, '.gitignore'), 'node_modules\n');
  const cases = Array.from({ length: 40 }, (_, i) => `test('case ${i}', () => expect(${i} + 1).toBe(${i + 1}));`).join('\n');
  writeFileSync(join(work, 'test', 'all.test.mjs'), `import { test, expect } from 'vitest';\n${cases}\ntest('range', () => expect(600 > 599, 'status code out of range').toBe(false));\n`);
  // Under Claude Code's 30,000-character cut, so both sessions show the model the whole listing.
  for (let i = 0; i < 20; i++) {
    const lines = Array.from({ length: 12 }, (_, j) => `export const value${j} = ${i * j}; // TODO(module-${i}): replace the placeholder value ${j} with the real one`);
    writeFileSync(join(work, 'src', `module-${String(i).padStart(2, '0')}.js`), `${lines.join('\n')}\n`);
  }
  writeFileSync(join(work, 'data', 'issues.json'), ISSUES_JSON);
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  writeFileSync(join(work, 'README.md'), '# demo\n\nchanged\n');
}

/** The project's committed settings, with a deny rule: init must leave the file alone, the hooks must respect the rule. */
const SHARED_SETTINGS = `${JSON.stringify({ permissions: { deny: ['Bash(git log:*)'] }, env: { DEMO: '1' } }, null, 2)}\n`;

const MARKER = /<<tokenless:[0-9]{29}>>|\[tokenless retrieve [0-9]{29}\]/;

function script(work: string, fileUrl: () => string): Script {
  const bash = (command: string): Turn => ({ tools: [{ name: 'Bash', input: { command, description: 'step' } }] });
  return [
    bash('git status'),
    bash('npm test'),
    bash('grep -rn TODO src'),
    () => bash(`curl -s ${fileUrl()}`),
    bash('git log -1'),
    { tools: [{ name: 'Read', input: { file_path: join(work, 'data', 'issues.json') } }] },
    { tools: [{ name: 'Grep', input: { pattern: 'TODO', path: join(work, 'src'), glob: 'module-0*.js', output_mode: 'content', '-n': true } }] },
    // Retrieve a marker the model was shown in the curl result (the model would copy it from there).
    (body: MessagesBody) => {
      const marker = markerShownFor(body, 'curl ');
      return bash(marker === undefined ? 'echo no marker' : `tokenless retrieve '${marker}'`);
    },
    { text: 'done' },
  ];
}

/** The first marker in the result of the Bash call whose command starts with `prefix`. */
function markerShownFor(body: MessagesBody, prefix: string): string | undefined {
  const blocks = body.messages.flatMap((message) => (Array.isArray(message.content) ? (message.content as Record<string, unknown>[]) : []));
  const call = blocks.find((block) => block['type'] === 'tool_use' && JSON.stringify((block['input'] as { command?: unknown }).command ?? '').startsWith(`"${prefix}`));
  const result = blocks.find((block) => block['type'] === 'tool_result' && call !== undefined && block['tool_use_id'] === call['id']);
  return MARKER.exec(JSON.stringify(result?.['content'] ?? ''))?.[0];
}

interface SessionOutcome {
  readonly results: SeenResult[];
  readonly status: number | null;
  readonly dataDir: string;
  readonly stderr: string;
  readonly env: Record<string, string>;
}

async function session(withHooks: boolean): Promise<SessionOutcome> {
  const dirs = sessionDirs(tempDir());
  buildWorkTree(dirs.work);
  mkdirSync(join(dirs.work, '.claude'), { recursive: true });
  writeFileSync(join(dirs.work, '.claude', 'settings.json'), SHARED_SETTINGS);
  const where = { url: '' };
  const server = await startFakeAnthropic(script(dirs.work, () => `${where.url}/files/express.json`), { 'express.json': EXPRESS_JSON });
  where.url = server.url;
  try {
    const env = sessionEnv(dirs, server.url);
    if (withHooks) {
      const init = runCli(['init'], { cwd: dirs.work, env: { HOME: dirs.home, CLAUDE_CONFIG_DIR: join(dirs.home, '.claude'), TOKENLESS_DATA_DIR: dirs.data } });
      expect(init.status, init.stderr).toBe(0);
    }
    const run = await runClaude(CLAUDE ?? '', dirs, env, ['--dangerously-skip-permissions', '--allowedTools', 'Grep', 'Glob']);
    return { results: seenResults(server.requests), status: run.status, dataDir: dirs.data, stderr: run.stderr, env };
  } finally {
    await server.close();
  }
}

describe.skipIf(CLAUDE === null)('real Claude Code session: syt init hooks vs no hooks', () => {
  let ours: SessionOutcome;
  let baseline: SessionOutcome;
  beforeAll(async () => {
    [baseline, ours] = [await session(false), await session(true)];
  }, 400_000);
  afterAll(() => {
    const dump = process.env['TOKENLESS_E2E_DUMP'];
    if (dump !== undefined) writeFileSync(dump, JSON.stringify({ baseline: baseline.results, ours: ours.results }, null, 1));
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    const rows = ours.results.map((result, i) => {
      const before = estimateTokens(baseline.results[i]?.content ?? '');
      const after = estimateTokens(result.content);
      return `| ${i} | ${result.tool} ${JSON.stringify(result.input['command'] ?? result.input['pattern'] ?? result.input['file_path'] ?? '').slice(1, -1).replace(/\/tmp\/\S+?\/work/g, '<work>').slice(0, 60)} | ${before} | ${after} | ${before - after} |`;
    });
    console.log(['| # | call | baseline tokens | ours tokens | saved |', '| --- | --- | ---: | ---: | ---: |', ...rows].join('\n'));
  });

  it('both sessions finish and make the same calls', () => {
    expect(baseline.status, baseline.stderr).toBe(0);
    expect(ours.status, ours.stderr).toBe(0);
    expect(ours.results.map((r) => r.tool)).toEqual(baseline.results.map((r) => r.tool));
    expect(ours.results).toHaveLength(8);
  });

  it('keeps every is_error flag and the failing exit code', () => {
    expect(ours.results.slice(0, 7).map((r) => r.isError)).toEqual(baseline.results.slice(0, 7).map((r) => r.isError));
    expect(ours.results[1]?.isError).toBe(true);
    expect(ours.results[1]?.content).toMatch(/^Exit code 1/);
  });

  it('shows the model shorter results for the failing test run, the big grep, the JSON and Grep', () => {
    for (const index of [1, 2, 3, 6]) {
      const before = baseline.results[index]?.content ?? '';
      const after = ours.results[index]?.content ?? '';
      expect(after.length, `call ${index}`).toBeLessThan(before.length);
      expect(after.length, `call ${index}`).toBeGreaterThan(0);
    }
    // git status is short already; a Read of a data file is never content-compressed (file reads are edited from).
    for (const index of [0, 5]) expect(ours.results[index]?.content.length).toBeLessThanOrEqual(baseline.results[index]?.content.length ?? 0);
    expect(ours.results[1]?.content).toMatch(/status code out of range/);
  });

  it('never touches a command the user denied', () => {
    expect(ours.results[4]?.content).toBe(baseline.results[4]?.content);
    expect(ours.results[4]?.isError).toBe(true);
  });

  it('retrieves the marker the model was shown, byte for byte', () => {
    expect(ours.results[3]?.content).toMatch(MARKER);
    const retrieved = ours.results[7];
    expect(retrieved?.isError).toBe(false);
    // Claude Code trims the trailing newline of a Bash result; everything else is the served file exactly.
    expect(retrieved?.content).toBe(EXPRESS_JSON.trimEnd());
  });

  it('records the savings: tokenless stats summary', () => {
    const summary = runCli(['stats', 'summary', '--json'], { env: { TOKENLESS_DATA_DIR: ours.dataDir } });
    expect(summary.status, summary.stderr).toBe(0);
    const totals = (JSON.parse(summary.stdout) as { totals: { records: number; savedTokens: number } }).totals;
    expect(totals.records).toBeGreaterThanOrEqual(3);
    expect(totals.savedTokens).toBeGreaterThan(1000);
  });

  it('ran the hooks from .claude/settings.local.json and left the committed settings.json byte for byte', () => {
    const work = join(ours.dataDir, '..', 'work');
    expect(readFileSync(join(work, '.claude', 'settings.json'), 'utf8')).toBe(SHARED_SETTINGS);
    const local = JSON.parse(readFileSync(join(work, '.claude', 'settings.local.json'), 'utf8')) as { hooks: Record<string, unknown> };
    expect(Object.keys(local.hooks)).toContain('PreToolUse');
    // The savings above came from these hooks: settings.json has none. And git does not see the local file.
    expect(execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: work, encoding: 'utf8' })).not.toMatch(/settings\.local/);
  });
});
