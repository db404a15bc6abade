/** `syt cost simulate` from the built CLI: the `--json` shape on two real transcripts, and its usage errors. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { ROOT } from '../helpers/root.ts';

const TRANSCRIPTS = join(ROOT, 'test', 'fixtures', 'transcripts', 'claude-code');
const FILES = ['1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl', 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'].map((name) => join(TRANSCRIPTS, name));

describe('syt cost simulate', () => {
  it('--json prints one object: sessions with validation error, costs and savings, and the totals', () => {
    const result = runCli(['cost', 'simulate', ...FILES, '--json']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout) as Record<string, unknown> & { sessions: Record<string, unknown>[] };
    expect(report.sessions.map((s) => [s['file'], s['requests']])).toEqual([
      ['1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl', 7],
      ['fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl', 170],
    ]);
    for (const s of report.sessions) {
      expect(s['validation_error']).toBeLessThan(0.05);
      expect(typeof s['recorded_cost']).toBe('number');
      expect(typeof s['simulated_cost']).toBe('number');
      expect(Object.keys(s['savings'] as object).sort()).toEqual(['fold_stale', 'hooks', 'keep_warm', 'tool_tiers', 'ttl_1h_all', 'ttl_1h_prefix', 'ttl_1h_prefix_after_pause', 'ttl_5m_all', 'ttl_5m_conversation', 'ttl_online']);
    }
    expect(report['validation_error']).toBe(Math.max(...report.sessions.map((s) => s['validation_error'] as number)));
    expect(report['recorded_cost']).toBeCloseTo(report.sessions.reduce((sum, s) => sum + (s['recorded_cost'] as number), 0), 10);
    expect(typeof report['simulated_cost']).toBe('number');
    expect(report['excluded']).toEqual([]);
  });

  it('--tools prices the gateway\'s tool tiers with a captured request\'s tools; without it they are not priced', () => {
    const tools = join(ROOT, 'test', 'fixtures', 'claude-code-requests', 'first-request-2.1.332-sonnet-4-5.json');
    const priced = JSON.parse(runCli(['cost', 'simulate', FILES[0] ?? '', '--tools', tools, '--json']).stdout) as { sessions: Record<string, unknown>[] };
    const session = priced.sessions[0] as { savings: Record<string, unknown>; tool_tiers: { stubbed: string[] } | null; fold: Record<string, number> };
    expect(session.savings['tool_tiers']).toMatchObject({ dollars: expect.any(Number) as number });
    expect(session.tool_tiers?.stubbed).toContain('ToolSearch');
    expect(session.tool_tiers?.stubbed).not.toContain('Bash');
    expect(session.fold).toEqual({ cold_requests: 0, folds: 0, retrieved: 0 });
    const unpriced = JSON.parse(runCli(['cost', 'simulate', FILES[0] ?? '', '--json']).stdout) as { sessions: Record<string, unknown>[] };
    expect(unpriced.sessions[0]?.['tool_tiers']).toBeNull();
    const bad = runCli(['cost', 'simulate', FILES[0] ?? '', '--tools', FILES[0] ?? '']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('tools array');
  });

  it('a missing transcript fails (exit 1, like every missing path) and names it', () => {
    const result = runCli(['cost', 'simulate', join(TRANSCRIPTS, 'no-such.jsonl')]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('no such transcript');
    expect(result.stderr).toContain('no-such.jsonl');
    expect(result.stdout).toBe('');
  });

  it('no transcript at all exits non-zero', () => {
    const result = runCli(['cost', 'simulate']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('transcript');
  });

  it('a --hooks file that is not the session replay output is a usage error', () => {
    const result = runCli(['cost', 'simulate', FILES[0] ?? '', '--hooks', FILES[0] ?? '']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('bench-sessions.mjs');
  });
});
