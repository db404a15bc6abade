import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarizeOutputs } from '../../src/replay/outputs-summary.ts';
import { openReplaySandbox } from '../../src/replay/sandbox.ts';
import { replaySession } from '../../src/replay/session-replay.ts';
import { readRecordedSession } from '../../src/replay/transcript.ts';
import { tokenCounter } from '../../src/tokens/count.ts';
import { runCli } from '../helpers/cli.ts';
import { FIXTURES_DIR } from '../helpers/fixtures.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();
const PROJECT = join(FIXTURES_DIR, 'projects', 'budget-demo');
const CC = join(FIXTURES_DIR, 'transcripts', 'claude-code');

interface LogJson {
  totals: { transcripts: number; requests: number; cumulative_context: number };
  transcripts: { file: string; requests: { context: number; input: number; cache_read: number; cache_write: number }[]; manager: { saved_share: number } | null }[];
  replay: { before_tokens: number; after_tokens: number; note: string } | null;
}

/** Independent of our reader: the raw lines' usage, one entry per message.id + requestId. */
function rawContexts(file: string): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const d = JSON.parse(line) as { type?: string; requestId?: string; message?: { id?: string; usage?: Record<string, number | null> } };
    const u = d.message?.usage;
    if (d.type !== 'assistant' || u === undefined || seen.has(`${d.message?.id}:${d.requestId}`)) continue;
    seen.add(`${d.message?.id}:${d.requestId}`);
    out.push((u['input_tokens'] ?? 0) + (u['cache_read_input_tokens'] ?? 0) + (u['cache_creation_input_tokens'] ?? 0));
  }
  return out;
}

describe('syt analyze DIR', () => {
  it('--json prints exactly one document with layers, items and advice', () => {
    const result = runCli(['analyze', PROJECT, '--json'], { env: { TOKENLESS_DATA_DIR: tempDir() } });
    expect(result.status).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    const report = JSON.parse(result.stdout) as { profile: string; token_method: string; layers: { layer: string; budget: number }[]; items: unknown[]; advice: string[] };
    expect(report.profile).toBe('agentic');
    expect(report.token_method).toBe('o200k');
    expect(report.layers.map((l) => [l.layer, l.budget])).toEqual([['persistent', 24_000], ['session', 56_000], ['ephemeral', 80_000]]);
    expect(report.items).toHaveLength(8);
    expect(report.advice.length).toBeGreaterThan(0);
  });

  it('renders bars at a fixed terminal width', () => {
    const result = runCli(['analyze', PROJECT, '--profile', 'chat'], { env: { TOKENLESS_DATA_DIR: tempDir(), COLUMNS: '100' } });
    expect(result.status).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines.every((line) => line.length <= 100)).toBe(true);
    expect(result.stdout).toContain('profile chat · window 200,000 · output reserve 50,000 · tokens counted with o200k');
    expect(lines.find((l) => l.startsWith('persistent '))).toMatch(/^persistent  █+░* +8,\d{3} \/   7,500 \(1\d\d%\) COMPACT$/u);
    expect(result.stdout).toContain('~ estimated: MCP tool schemas');
    expect(result.stdout).toContain('Advice');
  });

  it('rejects an unknown profile as a usage error', () => {
    const result = runCli(['analyze', PROJECT, '--profile', 'nope'], { env: { TOKENLESS_DATA_DIR: tempDir() } });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/unknown profile nope/);
  });
});

describe('syt analyze --log', () => {
  it('per-request context sizes equal the usage fields of every real Claude Code transcript', () => {
    const result = runCli(['analyze', '--log', CC, '--json', '--no-replay'], { env: { TOKENLESS_DATA_DIR: tempDir() } });
    expect(result.status).toBe(0);
    const doc = JSON.parse(result.stdout) as LogJson;
    const files = readdirSync(CC).filter((f) => f.endsWith('.jsonl'));
    expect(doc.totals.transcripts).toBe(files.length);
    for (const file of files) {
      const report = doc.transcripts.find((t) => t.file.endsWith(file));
      expect(report?.requests.map((r) => r.context)).toEqual(rawContexts(join(CC, file)));
      expect(report?.requests.every((r) => r.context === r.input + r.cache_read + r.cache_write)).toBe(true);
    }
    expect(doc.replay).toBeNull();
  });

  it('replays tool outputs as the benchmark does, labelled and never growing, and leaves the data dir untouched', async () => {
    const dataDir = tempDir();
    const file = join(CC, 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');
    const result = runCli(['analyze', '--log', file, '--json'], { env: { TOKENLESS_DATA_DIR: dataDir } });
    expect(result.status).toBe(0);
    const doc = JSON.parse(result.stdout) as LogJson;
    expect(doc.replay?.after_tokens).toBeLessThanOrEqual(doc.replay?.before_tokens ?? 0);
    expect(doc.replay?.note).toMatch(/permission mode default/);
    expect(readdirSync(dataDir)).toEqual([]);
    // One answer for one file: the reader and engine of `npm run bench:sessions` give the same figures.
    const count = await tokenCounter();
    const sandbox = openReplaySandbox();
    try {
      const session = readRecordedSession(readFileSync(file, 'utf8'), file);
      const expected = summarizeOutputs((await replaySession(session, sandbox.contextFor(session, 'default', count))).calls, 'default');
      expect(doc.replay).toMatchObject({ before_tokens: expected.before_tokens, after_tokens: expected.after_tokens });
    } finally {
      sandbox.close();
    }
  }, 60_000);

  it.each([
    ['aider', join(FIXTURES_DIR, 'transcripts', 'aider', 'chat-history.md.gz'), 839],
    ['swe-agent', join(FIXTURES_DIR, 'transcripts', 'swe-agent'), 23],
  ])('reads %s through the same turn model', (_name, path, requests) => {
    const result = runCli(['analyze', '--log', path, '--json', '--no-replay'], { env: { TOKENLESS_DATA_DIR: tempDir() } });
    expect(result.status).toBe(0);
    expect((JSON.parse(result.stdout) as LogJson).totals.requests).toBe(requests);
  });

  it('renders the log view at a fixed width', () => {
    const result = runCli(['analyze', '--log', join(CC, 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl')], { env: { TOKENLESS_DATA_DIR: tempDir(), COLUMNS: '100' } });
    expect(result.status).toBe(0);
    expect(result.stdout.split('\n').every((line) => line.length <= 100)).toBe(true);
    expect(result.stdout).toContain('170 requests · cumulative context 3,786,648 · peak 42,726 · cache hits 96%');
    expect(result.stdout).toMatch(/What would have been saved: [\d,]+ of 36,823 tool-output tokens/);
  });

  it('fails with exit 1 on a missing file', () => {
    const result = runCli(['analyze', '--log', '/nonexistent/x.jsonl'], { env: { TOKENLESS_DATA_DIR: tempDir() } });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/no such file/);
  });
});
