/**
 * Every report fits the width it is given, by cutting names and dropping optional columns, never by wrapping a row:
 * golden files at 80 and 120 columns for demo, stats summary/list/show, analyze (project and --log), cost, cost history and doctor,
 * from the built CLI under a fixed environment. `UPDATE_GOLDEN=1 npx vitest run test/e2e/cli-width.test.ts`
 * rewrites them; review the diff before committing.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.ts';
import { ROOT } from '../helpers/root.ts';
import { seedStats } from '../unit/stats/seed.ts';

const GOLDEN = join(ROOT, 'test', 'golden', 'cli');
const TRANSCRIPTS = join(ROOT, 'test', 'fixtures', 'transcripts', 'claude-code');
const update = process.env['UPDATE_GOLDEN'] === '1';

let shared = '';
let dataDir = '';
let project = '';
let claudeDir = '';

beforeAll(() => {
  shared = mkdtempSync(join(tmpdir(), 'syt-width-golden-'));
  dataDir = join(shared, 'data');
  seedStats(dataDir);
  // A project with a Claude Code transcript of its own, for doctor's permissions check.
  project = join(shared, 'project');
  mkdirSync(project);
  claudeDir = join(shared, 'claude');
  const transcripts = join(claudeDir, 'projects', project.replace(/[^A-Za-z0-9]/g, '-'));
  mkdirSync(transcripts, { recursive: true });
  cpSync(join(TRANSCRIPTS, 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'), join(transcripts, 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'));
});

afterAll(() => rmSync(shared, { recursive: true, force: true }));

function normalise(text: string): string {
  return text.replaceAll(shared, '<TMP>').replaceAll(CLI, '<CLI>').replaceAll(ROOT, '<ROOT>').replaceAll(process.execPath, '<NODE>');
}

function golden(name: string, actual: string): void {
  const path = join(GOLDEN, name);
  if (update || !existsSync(path)) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(path, actual);
  }
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

// Paths are given relative to the checkout, so a clipped or wrapped line does not depend on where it lives.
const CASES: readonly (readonly [string, readonly string[], { cwd?: string; status?: number; freshData?: boolean; widthOnly?: boolean }])[] = [
  ['demo', ['demo'], {}],
  ['stats-summary', ['stats', 'summary'], {}],
  ['stats-list', ['stats', 'list'], {}],
  ['stats-show', ['stats', 'show', '5'], {}],
  ['analyze-project', ['analyze', join('test', 'fixtures', 'projects', 'budget-demo')], {}],
  ['analyze-log', ['analyze', '--log', join('test', 'fixtures', 'transcripts', 'claude-code', '1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl')], {}],
  ['cost', ['cost', '--rereads', '10'], {}],
  // Two real sessions named as files: the header says "the 2 paths given", so no temp path decides where lines wrap.
  ['cost-history', ['cost', 'history', ...['1af7fc5e-8455-4414-9ccd-011d40f70b2a', 'fe5e1c67-53e7-4862-81ae-d0e013e3270b'].map((name) => join('test', 'fixtures', 'transcripts', 'claude-code', `${name}.jsonl`))], {}],
  // Its own data dir: the transcript cache another command filled would change the "parsed" count. Width only: its
  // first line holds the temp dir's absolute path, so where it wraps depends on the machine.
  ['stats-usage', ['stats', 'usage', '--claude-dir', '<CLAUDE>'], { freshData: true, widthOnly: true }],
  // No hooks registered: doctor fails (exit 1) and says what to run.
  ['doctor', ['doctor'], { status: 1, cwd: 'project' }],
];

describe('reports fit the terminal (built CLI)', () => {
  for (const width of [80, 120]) {
    it.each(CASES)(`%s at ${width} columns`, (name, args, options) => {
      const result = runCli(args.map((arg) => (arg === '<CLAUDE>' ? claudeDir : arg)), {
        cwd: options.cwd === 'project' ? project : ROOT,
        env: { COLUMNS: String(width), TOKENLESS_DATA_DIR: options.freshData === true ? mkdtempSync(join(shared, 'fresh-')) : dataDir, CLAUDE_CONFIG_DIR: claudeDir, TOKENLESS_CLAUDE_BIN: '/nonexistent/claude' },
      });
      expect(result.status).toBe(options.status ?? 0);
      const text = normalise(result.stdout);
      const wide = text.split('\n').filter((line) => [...line].length > width);
      expect(wide, `lines over ${width} columns`).toEqual([]);
      // One number format (issue 18): 14,551, never 14551; ids, dates, hashes and paths are not numbers.
      expect(text.replace(/retrieve \d+/g, '').match(/(?<![\w.,$/-])\d{4,}(?![\w-])/g) ?? [], 'numbers without thousands separators').toEqual([]);
      if (options.widthOnly !== true) golden(`${name}-${width}.txt`, text);
    });
  }

  it('piped without COLUMNS, reports are laid out for 80 columns', () => {
    const result = runCli(['stats', 'list'], { env: { COLUMNS: '', TOKENLESS_DATA_DIR: dataDir } });
    expect(result.stdout.split('\n').every((line) => [...line].length <= 80)).toBe(true);
    expect(result.stdout).toBe(runCli(['stats', 'list'], { env: { COLUMNS: '80', TOKENLESS_DATA_DIR: dataDir } }).stdout);
  });
});
