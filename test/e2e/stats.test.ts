/**
 * Golden files for every `stats` subcommand, `cost` and `dashboard`, in table and JSON form, from the built CLI under
 * a fixed environment (TZ=UTC, NO_COLOR, COLUMNS=120) over a stats.db seeded through the real recorder with a fixed
 * clock. `UPDATE_GOLDEN=1 npx vitest run test/e2e/stats.test.ts` rewrites them; review the diff before committing.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { ROOT } from '../helpers/root.ts';
import { useTempDirs } from '../helpers/temp.ts';
import { SEED, seedStats } from '../unit/stats/seed.ts';
import { StatsRecorder } from '../../src/store/stats.ts';

const GOLDEN = join(ROOT, 'test', 'golden', 'stats');
const TRANSCRIPTS = join(ROOT, 'test', 'fixtures', 'transcripts', 'claude-code');
const update = process.env['UPDATE_GOLDEN'] === '1';
const tempDir = useTempDirs();

let dataDir = '';
let claudeDir = '';

let shared = '';

// Shared by every test of the file (useTempDirs would remove them after the first test).
beforeAll(() => {
  shared = mkdtempSync(join(tmpdir(), 'tokenless-stats-golden-'));
  dataDir = join(shared, 'data');
  seedStats(dataDir);
  claudeDir = join(shared, 'claude');
  const project = join(claudeDir, 'projects', '-work-demo');
  mkdirSync(join(project, '440006e1-6d1f-4ca6-ba2e-2570f1e9de79', 'subagents'), { recursive: true });
  for (const name of ['1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl', 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl', 'transcript-2.1.332-demo.jsonl']) {
    cpSync(join(TRANSCRIPTS, name), join(project, name));
  }
  cpSync(join(TRANSCRIPTS, 'transcript-2.1.332-subagent.jsonl'), join(project, '440006e1-6d1f-4ca6-ba2e-2570f1e9de79', 'subagents', 'agent-abb395ba8daf1b837.jsonl'));
});

afterAll(() => rmSync(shared, { recursive: true, force: true }));

function normalise(text: string, dirs: Record<string, string>): string {
  let out = text;
  for (const [name, dir] of Object.entries(dirs)) out = out.replaceAll(dir, `<${name}>`);
  return out.replace(/generated \d{4}-\d{2}-\d{2}T[\d:.]+Z/g, 'generated <TIME>');
}

function golden(name: string, actual: string): void {
  const path = join(GOLDEN, name);
  if (update || !existsSync(path)) writeFileSync(path, actual);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

/** Runs one command in table and JSON form, checks both goldens; `fresh` gives each form its own seeded data dir. */
function check(name: string, args: readonly string[], options: { fresh?: boolean } = {}): void {
  for (const json of [false, true]) {
    const dir = options.fresh === true ? join(mkdtempSync(join(shared, 'fresh-')), 'data') : dataDir;
    if (options.fresh === true) seedStats(dir);
    const result = runCli(json ? [...args, '--json'] : args, { env: { TOKENLESS_DATA_DIR: dir, CLAUDE_CONFIG_DIR: join(claudeDir, 'none') } });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const text = json ? `${JSON.stringify(JSON.parse(result.stdout), null, 2)}\n` : result.stdout;
    golden(`${name}.${json ? 'json' : 'txt'}`, normalise(text, { DATA: dir, CLAUDE: claudeDir }));
  }
}

describe('stats golden files (built CLI)', () => {
  it.each([
    ['status', ['stats', 'status']],
    ['summary', ['stats', 'summary']],
    ['summary-all-modes', ['stats', 'summary', '--mode', 'all', '--since', '2026-03-02']],
    ['list', ['stats', 'list']],
    ['show', ['stats', 'show', '5']],
    ['diff', ['stats', 'diff', '5']],
    ['diff-session', ['stats', 'diff', '--session', 'session-a']],
    ['diff-tool-use', ['stats', 'diff', '--session', 'session-a', '--tool-use-id', 'toolu_2']],
    ['compare', ['stats', 'compare', 'baseline', 'session-b']],
    ['cost', ['cost', '--rereads', '10']],
  ] as const)('%s', (name, args) => check(name, args));

  it('summary as CSV', () => {
    const result = runCli(['stats', 'summary', '--format', 'csv'], { env: { TOKENLESS_DATA_DIR: dataDir } });
    expect(result.status).toBe(0);
    golden('summary.csv', result.stdout);
  });

  it('usage from a Claude config dir', () => {
    // A fresh data dir per form, so both parse every file and the goldens do not depend on test order.
    const dirs = { CLAUDE: claudeDir };
    const table = runCli(['stats', 'usage', '--claude-dir', claudeDir], { env: { TOKENLESS_DATA_DIR: tempDir() } });
    expect(table.status).toBe(0);
    golden('usage.txt', normalise(table.stdout, dirs));
    const json = runCli(['stats', 'usage', '--claude-dir', claudeDir, '--json'], { env: { TOKENLESS_DATA_DIR: tempDir() } });
    expect(json.status).toBe(0);
    golden('usage.json', normalise(json.stdout, dirs));
  });

  it('cost with transcripts prices records by their session', () => {
    const result = runCli(['cost', '--claude-dir', claudeDir, '--json'], { env: { TOKENLESS_DATA_DIR: dataDir } });
    expect(result.status).toBe(0);
    golden('cost-transcripts.json', normalise(result.stdout, { DATA: dataDir, CLAUDE: claudeDir }));
  });

  it.each([
    ['disable', ['stats', 'disable']],
    ['enable', ['stats', 'enable']],
    ['clear', ['stats', 'clear', '--yes']],
  ] as const)('%s', (name, args) => check(name, args, { fresh: true }));

  it('clear without --yes is a usage error and deletes nothing', () => {
    const result = runCli(['stats', 'clear'], { env: { TOKENLESS_DATA_DIR: dataDir } });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--yes');
    expect(JSON.parse(runCli(['stats', 'status', '--json'], { env: { TOKENLESS_DATA_DIR: dataDir } }).stdout)).toMatchObject({ records: 7 });
  });

  it('a missing record is exit 1, a bad option exit 2', () => {
    expect(runCli(['stats', 'show', '999'], { env: { TOKENLESS_DATA_DIR: dataDir } }).status).toBe(1);
    expect(runCli(['stats', 'summary', '--limit', 'ten'], { env: { TOKENLESS_DATA_DIR: dataDir } }).status).toBe(2);
  });
});

describe('a capped output reads the same in list, summary and show (built CLI)', () => {
  it('stats list, stats summary and stats show agree on a 476 KB cat shown as a 700-token view (list said 44, show 700 regression)', () => {
    const dir = tempDir();
    const recorder = new StatsRecorder(dir, () => Date.parse('2026-03-01T09:00:00Z'));
    recorder.tryRecord([{ ...SEED[0]![1], toolName: 'Bash', operations: ['head_tail'], before: `${'x'.repeat(475_999)}\n`, after: `${'y'.repeat(2_799)}\n`, beforeTokens: 120_000, afterTokens: 700 }]);
    recorder.close();
    const env = { TOKENLESS_DATA_DIR: dir };
    const list = JSON.parse(runCli(['stats', 'list', '--json'], { env }).stdout) as { records: { before_tokens: number; after_tokens: number; saved_tokens: number }[] };
    const summary = JSON.parse(runCli(['stats', 'summary', '--json'], { env }).stdout) as { totals: { beforeTokens: number; afterTokens: number; savedTokens: number } };
    const show = JSON.parse(runCli(['stats', 'show', '1', '--json'], { env }).stdout) as { counted: { before_tokens: number; after_tokens: number; saved_tokens: number } };
    const text = runCli(['stats', 'show', '1'], { env }).stdout;
    const figures = [list.records[0]!.before_tokens, list.records[0]!.after_tokens, list.records[0]!.saved_tokens];
    expect(figures[1]).toBe(700);
    expect([summary.totals.beforeTokens, summary.totals.afterTokens, summary.totals.savedTokens]).toEqual(figures);
    expect([show.counted.before_tokens, show.counted.after_tokens, show.counted.saved_tokens]).toEqual(figures);
    expect(text).toContain(`tokens       ${figures[0]!.toLocaleString('en-US')} -> 700 (`);
    expect(text).toContain('(120,000 in full)');
  });
});

describe('stats diff is the audit: original against view (built CLI)', () => {
  it('shows a unified diff of the stashed original and the view, with the marker and figures; once the stash lost them it says so and shows the digests (stats diff shows only sizes and digests regression)', () => {
    const dir = tempDir();
    const env = { TOKENLESS_DATA_DIR: join(dir, 'data') };
    const run = runCli(['run', '--', 'seq', '1', '400'], { env, cwd: dir });
    expect(run.stdout).toMatch(/\[tokenless retrieve (\d{29})\]\n$/u);
    const id = /retrieve (\d{29})/u.exec(run.stdout)?.[1] ?? '';
    const diff = runCli(['stats', 'diff', '1'], { env, cwd: dir });
    expect(diff.status).toBe(0);
    expect(diff.stdout).toMatch(/^#1 run seq 1 generic: [\d,]+ -> [\d,]+ tokens \(as stats list counts them\)\n/u);
    expect(diff.stdout).toContain(`marker: tokenless retrieve ${id}\n`);
    expect(diff.stdout).toMatch(/^--- original \(sha256 [0-9a-f]{24}, \d+ bytes\)\n\+\+\+ view \(sha256 [0-9a-f]{24}, \d+ bytes\)\n@@ /mu);
    expect(diff.stdout).toMatch(/^-200$/mu);
    expect(diff.stdout).toMatch(/^ 400$/mu);
    expect(diff.stdout).toContain(`\n+[tokenless retrieve ${id}]\n`);
    rmSync(join(dir, 'data', 'stash.db'));
    const gone = runCli(['stats', 'diff', '1'], { env, cwd: dir });
    expect(gone.status).toBe(0);
    expect(gone.stdout).toMatch(/no diff: the original and the view are not in the stash/u);
    expect(gone.stdout).toMatch(/^original: 400 line\(s\), \d+ bytes, \d+ tokens, sha256 [0-9a-f]{24}$/mu);
    expect(gone.stdout).toMatch(/^view: +\d+ line\(s\), .*sha256 [0-9a-f]{24}$/mu);
  });
});

describe('stats list at 80 columns keeps the figures', () => {
  it('cuts or drops the timestamp, never the saved column (stats list at 80 columns drops saved before the timestamp regression)', () => {
    const dir = tempDir();
    const recorder = new StatsRecorder(dir, () => Date.parse('2026-03-01T09:00:00Z'));
    const base = SEED[0]![1];
    recorder.tryRecord([{ ...base, sessionId: '0f5f260d-5d2f-4465-b5a7-98269bd4ad75', toolName: 'Bash', operations: ['test_summary'], beforeTokens: 1_234_567, afterTokens: 12_345 }]);
    recorder.tryRecord([{ ...base, sessionId: '0f5f260d-5d2f-4465-b5a7-98269bd4ad75', toolName: 'Grep', operations: ['search_paths'], beforeTokens: 98_765, afterTokens: 4_321 }]);
    recorder.close();
    const text = runCli(['stats', 'list'], { env: { TOKENLESS_DATA_DIR: dir, COLUMNS: '80' } }).stdout;
    const lines = text.split('\n');
    expect(lines.every((line) => line.length <= 80), text).toBe(true);
    expect(lines.find((line) => line.startsWith('id'))).toMatch(/saved$/u);
    expect(lines.filter((line) => /^ *\d+ /u.test(line)).map((line) => /[+-][\d,]+$/u.exec(line)?.[0])).toEqual(['+94,444', '+1,222,222']);
  });
});
