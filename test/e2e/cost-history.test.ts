/**
 * `syt cost history` from the built CLI over a Claude config dir in a temp dir holding copies of two real sessions
 * (the corpus's, kept under test/fixtures) and files that are not transcripts: the `--json` shape, agreement with
 * `syt cost simulate` on the same files, the filters and bounds counted, and its failures.
 */
import { copyFileSync, mkdirSync, readFileSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { ROOT } from '../helpers/root.ts';
import { useTempDirs } from '../helpers/temp.ts';
import { POLICIES } from '../../src/cost/simulate-report.ts';

const TRANSCRIPTS = join(ROOT, 'test', 'fixtures', 'transcripts', 'claude-code');
const SMALL = '1af7fc5e-8455-4414-9ccd-011d40f70b2a';
const LARGE = 'fe5e1c67-53e7-4862-81ae-d0e013e3270b';

const tempDir = useTempDirs();
let claude = '';

interface Report {
  source: string[];
  transcripts_found: number;
  bound: number;
  sessions: (Record<string, unknown> & { file: string; project: string; savings: Record<string, { dollars: number } | null>; hooks_replay: Record<string, number> | null })[];
  totals: Record<string, unknown> & { policies: { policy: string; dollars: number; validation_error: number }[] };
  skipped: { path: string; reason: string }[];
  skipped_by_reason: Record<string, number>;
  not_taken: Record<string, number>;
  prices: { model: string; taken: string }[];
}

function history(args: readonly string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string; report: Report | null } {
  const result = runCli(['cost', 'history', ...args], { env: { TOKENLESS_DATA_DIR: join(claude, '..', 'data'), CLAUDE_CONFIG_DIR: claude, ...env } });
  return { ...result, report: args.includes('--json') && result.stdout !== '' ? (JSON.parse(result.stdout) as Report) : null };
}

beforeEach(() => {
  claude = join(tempDir(), 'claude');
  const app = join(claude, 'projects', '-home-me-app');
  const lib = join(claude, 'projects', '-home-me-lib');
  mkdirSync(app, { recursive: true });
  mkdirSync(lib, { recursive: true });
  copyFileSync(join(TRANSCRIPTS, `${SMALL}.jsonl`), join(app, `${SMALL}.jsonl`));
  copyFileSync(join(TRANSCRIPTS, `${LARGE}.jsonl`), join(lib, `${LARGE}.jsonl`));
  // The small session with one request's usage rewritten: all written, nothing read, where the simulation reads. The
  // simulator cannot reproduce it, so it must be listed and claim nothing.
  const usage = readFileSync(join(TRANSCRIPTS, `${SMALL}.jsonl`), 'utf8').replaceAll('"cache_creation_input_tokens":304', '"cache_creation_input_tokens":15854').replaceAll('"cache_read_input_tokens":15550', '"cache_read_input_tokens":0');
  writeFileSync(join(lib, 'tampered.jsonl'), usage);
  writeFileSync(join(lib, 'broken.jsonl'), 'not json\n{"also": "not a transcript line"}\n');
  writeFileSync(join(lib, 'summary-only.jsonl'), '{"type":"summary","summary":"a title","leafUuid":"x"}\n');
  // Fixed mtimes, newest first: LARGE, SMALL, the tampered one, then the two that are not sessions.
  const at = (path: string, day: number) => utimesSync(path, new Date(Date.UTC(2026, 0, day)), new Date(Date.UTC(2026, 0, day)));
  at(join(lib, `${LARGE}.jsonl`), 20);
  at(join(app, `${SMALL}.jsonl`), 10);
  at(join(lib, 'tampered.jsonl'), 8);
  at(join(lib, 'broken.jsonl'), 5);
  at(join(lib, 'summary-only.jsonl'), 4);
});

describe('syt cost history', () => {
  it('finds the transcripts under $CLAUDE_CONFIG_DIR and prints one JSON object: sessions, totals per policy, skipped files', () => {
    const { status, stderr, report } = history(['--json']);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    if (report === null) throw new Error('no report');
    expect(report.source).toEqual([claude]);
    expect(report.transcripts_found).toBe(5);
    expect(report.sessions.map((s) => [s.file, s.project, s['requests']])).toEqual([
      [SMALL, '-home-me-app', 7],
      ['tampered', '-home-me-lib', 7],
      [LARGE, '-home-me-lib', 170],
    ]);
    expect(report.skipped_by_reason).toEqual({ 'not a transcript': 1, 'no billed requests': 1 });
    expect(report.skipped.map((s) => s.path.endsWith('broken.jsonl') || s.path.endsWith('summary-only.jsonl'))).toEqual([true, true]);
    const [tampered] = report.sessions.splice(1, 1);
    expect(tampered?.['validation_error']).toBeGreaterThan(report.bound);
    expect(tampered?.['excluded']).toMatch(/^reproduced only within 55\.0% \(bound 5%\)/);
    expect(Object.values(tampered?.savings ?? {}).every((saving) => saving === null)).toBe(true);
    expect(report.totals['excluded']).toBe(1);
    for (const s of report.sessions) {
      expect(Object.keys(s.savings).sort()).toEqual([...POLICIES].sort());
      expect(s['validation_error']).toBeLessThan(report.bound);
      expect(s.hooks_replay?.['retrieval_failures']).toBe(0);
      expect(s['hooks_error']).toBeNull();
    }
    // The hooks shortened something in the large session, and the simulator priced it.
    expect(report.sessions[1]?.savings['hooks']?.dollars).toBeGreaterThan(0);
    expect(report.totals.policies.map((p) => p.policy).sort()).toEqual([...POLICIES].sort());
    const sum = (pick: (s: Report['sessions'][number]) => number) => report.sessions.reduce((total, s) => total + pick(s), 0);
    // Recorded cost covers every session; savings and their error only the reproduced ones.
    expect(report.totals['recorded_cost']).toBeCloseTo(sum((s) => s['recorded_cost'] as number) + (tampered?.['recorded_cost'] as number), 10);
    expect(report.totals['recorded_cost_reproduced']).toBeCloseTo(sum((s) => s['recorded_cost'] as number), 10);
    expect(report.totals.policies.find((p) => p.policy === 'hooks')?.dollars).toBeCloseTo(sum((s) => s.savings['hooks']?.dollars ?? 0), 10);
    expect(report.totals['validation_error']).toBe(Math.max(...report.sessions.map((s) => s['validation_error'] as number)));
    expect(report.prices.length).toBeGreaterThan(0);
    expect(report.not_taken).toEqual({ other_project: 0, before_since: 0, over_limit: 0, over_time: 0 });
  });

  it('agrees with `syt cost simulate` on the same files: the same error, recorded cost and TTL savings', () => {
    const files = [join(claude, 'projects', '-home-me-app', `${SMALL}.jsonl`), join(claude, 'projects', '-home-me-lib', `${LARGE}.jsonl`)];
    const { report } = history([...files, '--json']);
    const simulated = JSON.parse(runCli(['cost', 'simulate', ...files, '--json']).stdout) as { sessions: Report['sessions'] };
    expect(report?.sessions.map((s) => [s['validation_error'], s['recorded_cost'], s['reproduced_cost']])).toEqual(simulated.sessions.map((s) => [s['validation_error'], s['recorded_cost'], s['reproduced_cost']]));
    for (const [i, s] of (report?.sessions ?? []).entries()) {
      for (const policy of POLICIES.filter((name) => name !== 'hooks')) expect(s.savings[policy]).toEqual(simulated.sessions[i]?.savings[policy]);
    }
  });

  it('--project, --since and --max-sessions narrow what is read, and every transcript left out is counted', () => {
    const app = history(['--json', '--project', 'app']).report;
    expect(app?.sessions.map((s) => s.file)).toEqual([SMALL]);
    expect(app?.not_taken['other_project']).toBe(4);
    const since = history(['--json', '--since', '2026-01-15']).report;
    expect(since?.sessions.map((s) => s.file)).toEqual([LARGE]);
    expect(since?.not_taken['before_since']).toBe(4);
    const newest = history(['--json', '--max-sessions', '1']).report;
    expect(newest?.sessions.map((s) => s.file)).toEqual([LARGE]);
    expect(newest?.not_taken['over_limit']).toBe(4);
    const none = history(['--json', '--max-seconds', '0']);
    expect(none.status).toBe(0);
    expect(none.report?.sessions).toEqual([]);
    expect(none.report?.not_taken['over_time']).toBe(5);
  });

  it('the table says what was skipped and which sessions claim nothing, and why', () => {
    const { status, stdout } = history([], { COLUMNS: '120' });
    expect(status).toBe(0);
    // Prose lines wrap between words at the width: read them as one text.
    const prose = stdout.replace(/\s+/g, ' ');
    expect(prose).toContain(`3 session(s) from 5 transcript(s) under ${claude}; skipped: 1 not a transcript, 1 no billed requests`);
    expect(prose).toContain('2 reproduced within 5.0% of their recorded cache usage');
    expect(prose).toContain('1 over it: listed with "!", no saving claimed for them');
    // At 120 columns there is room for every policy column (the request count gives way to them).
    expect(stdout).toMatch(/^2025-09-03 +tampered( +7)? +55\.0%! +\$0\.\d{4}( +-)+$/m);
    // Its row claims no policy, in the table and in any continuation of it that wider policy lists need.
    const dashes = stdout.split('\n').filter((line) => /^(2025-09-03 +)?tampered /.test(line)).join(' ').match(/ -(?= |$)/g) ?? [];
    expect(dashes.length).toBe(POLICIES.length);
    expect(prose).toContain('not reproduced: tampered: reproduced only within 55.0%');
    expect(prose).toMatch(/skipped \(no billed requests\): \S+summary-only\.jsonl: nothing to price/);
    expect(stdout).toMatch(/^hooks save +\$/m);
    expect(stdout).toMatch(/^P\d+ ttl_1h_prefix saves/m);
    expect(stdout.split('\n').every((line) => line.length <= 120)).toBe(true);
  });

  it('at 80 columns every policy column is shown, the ones that do not fit in a second table, and the hindsight bound is only on its own line', () => {
    const { status, stdout } = history([], { COLUMNS: '80' });
    expect(status).toBe(0);
    const lines = stdout.split('\n');
    expect(lines.filter((line) => [...line].length > 80)).toEqual([]);
    // The session tables' header lines ("started …" then "session …"): each policy headed once, none dropped.
    const headers = lines.filter((line) => /^(started|session) /.test(line)).flatMap((line) => line.trim().split(/\s+/));
    const policyHeaders = headers.filter((h) => h === 'hooks' || /^P\d+$/.test(h));
    expect(policyHeaders).toHaveLength(POLICIES.length);
    expect(new Set(policyHeaders).size).toBe(POLICIES.length);
    expect(lines.filter((line) => line.startsWith('session ')).length).toBeGreaterThan(0);
    expect(stdout).not.toMatch(/fold_…|not shown per session/);
    // The legend spells out every numbered header.
    const prose = stdout.replace(/\s+/g, ' ');
    for (const policy of POLICIES.filter((name) => name.length > 8)) expect(prose).toMatch(new RegExp(`P\\d+ ${policy}[,\\s]`));
    // The headline claims nothing chosen with hindsight; the bound starts its own line and says what it is.
    const bound = stdout.search(/^best possible, hindsight \(an upper bound, not a saving\)/m);
    expect(bound).toBeGreaterThan(0);
    expect(stdout.slice(0, bound)).not.toMatch(/hindsight|policy that pays/);
  });

  it('a transcript over the size bound is skipped; when nothing could be read at all, exit 1 after the report', () => {
    const big = join(tempDir(), 'huge.jsonl');
    writeFileSync(big, '');
    truncateSync(big, 65 << 20);
    const { status, stderr, report } = history([big, '--json']);
    expect(report?.skipped.map((s) => s.reason)).toEqual(['too large']);
    expect(status).toBe(1);
    expect(stderr).toMatch(/^tokenless cost history: none of the 1 transcript\(s\) could be read \(\S+huge\.jsonl: 68157440 bytes, over the 67108864-byte bound\)$/m);
  });

  it('no transcript anywhere (Claude Code never ran) is nothing to do: exit 0', () => {
    const { status, report } = history(['--json'], { CLAUDE_CONFIG_DIR: join(claude, 'missing') });
    expect(status).toBe(0);
    expect(report?.sessions).toEqual([]);
    expect(report?.transcripts_found).toBe(0);
  });

  it('paths and --claude-dir together are a usage error', () => {
    const { status, stderr, stdout } = history([claude, '--claude-dir', claude]);
    expect(status).toBe(2);
    expect(stderr).toContain('give paths or --claude-dir, not both');
    expect(stdout).toBe('');
  });
});
