import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeRequests, parseUsageLine, readUsage, totalUsage } from '../../../src/transcript/claude-code.ts';
import { findTranscripts } from '../../../src/transcript/files.ts';
import { loadUsage } from '../../../src/transcript/usage-cache.ts';
import { ROOT } from '../../helpers/root.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'transcripts', 'claude-code');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'transcripts', 'claude-code');
// The shared corpus when this checkout sits next to it; the fixtures are byte-identical copies otherwise.
const DIR = existsSync(CORPUS) ? CORPUS : FIXTURES;
const files = readdirSync(DIR).filter((name) => name.endsWith('.jsonl')).sort();
const tempDir = useTempDirs();

type Sums = { requests: number; input: number; cacheRead: number; cacheWrite: number; output: number };

/**
 * Independent reference: plain JSON.parse, no schema. Lines of one response share message.id and requestId; the
 * streamed copies repeat the input counts and only the last one has the final output count, so the last line of
 * each group wins. Synthetic (locally generated) messages are not requests.
 */
function referenceTotals(text: string): Sums {
  const last = new Map<string, Record<string, unknown>>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const entry = JSON.parse(line) as { type?: string; requestId?: string; message?: { id?: string; model?: string; usage?: Record<string, unknown> } };
    if (entry.type !== 'assistant' || entry.message?.usage === undefined || entry.message.model === '<synthetic>') continue;
    last.set(`${entry.message.id}/${entry.requestId}`, entry.message.usage);
  }
  const sums: Sums = { requests: last.size, input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  const n = (value: unknown): number => (typeof value === 'number' ? value : 0);
  for (const usage of last.values()) {
    sums.input += n(usage['input_tokens']);
    sums.cacheRead += n(usage['cache_read_input_tokens']);
    sums.cacheWrite += n(usage['cache_creation_input_tokens']);
    sums.output += n(usage['output_tokens']);
  }
  return sums;
}

describe('readUsage on the real Claude Code transcripts', () => {
  it.each(files)('matches an independent de-duplicated sum for %s', (name) => {
    const text = readFileSync(join(DIR, name), 'utf8');
    const totals = totalUsage(readUsage(text));
    const expected = referenceTotals(text);
    expect({ requests: totals.requests, input: totals.input, cacheRead: totals.cacheRead, cacheWrite: totals.cacheWrite5m + totals.cacheWrite1h, output: totals.output }).toEqual(expected);
    expect(expected.requests).toBeGreaterThan(0);
  });

  it('counts the 170 distinct requests of the long session (438 lines)', () => {
    const requests = readUsage(readFileSync(join(DIR, 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'), 'utf8'));
    expect(requests).toHaveLength(170);
    expect(new Set(requests.map((r) => r.session))).toEqual(new Set(['fe5e1c67-53e7-4862-81ae-d0e013e3270b']));
  });

  it('keeps the final output count of a streamed response, not the first partial one', () => {
    const requests = readUsage(readFileSync(join(DIR, '1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl'), 'utf8'));
    const first = requests.find((r) => r.requestId === 'req_011CSkYba8YAUvnXvqT4qm9G');
    expect(first?.output).toBe(322);
    expect(first?.cacheWrite5m).toBe(10816);
  });

  it('marks subagent requests as sidechain and keeps their parent session', () => {
    const requests = readUsage(readFileSync(join(DIR, 'transcript-2.1.332-subagent.jsonl'), 'utf8'));
    expect(requests.every((r) => r.sidechain)).toBe(true);
    expect(requests[0]?.session).toBe('440006e1-6d1f-4ca6-ba2e-2570f1e9de79');
  });
});

describe('parseUsageLine', () => {
  const line = (usage: object, extra: object = {}) =>
    JSON.stringify({ type: 'assistant', sessionId: 's', requestId: 'r', timestamp: '2026-01-01T00:00:00Z', message: { id: 'm', model: 'claude-sonnet-4-5', usage }, ...extra });

  it('splits cache writes into 5m and 1h, and reads old lines without a split as 5m', () => {
    expect(parseUsageLine(line({ cache_creation_input_tokens: 100, cache_creation: { ephemeral_5m_input_tokens: 40, ephemeral_1h_input_tokens: 60 } }))).toMatchObject({ cacheWrite5m: 40, cacheWrite1h: 60 });
    expect(parseUsageLine(line({ cache_creation_input_tokens: 100 }))).toMatchObject({ cacheWrite5m: 100, cacheWrite1h: 0 });
  });

  it('ignores user lines, bad JSON, synthetic messages and lines without usage', () => {
    expect(parseUsageLine('{"type":"user","message":{"usage":{}}}')).toBeNull();
    expect(parseUsageLine('{"type":"assistant","usage" oops')).toBeNull();
    expect(parseUsageLine(line({ input_tokens: 1 }).replace('claude-sonnet-4-5', '<synthetic>'))).toBeNull();
    expect(parseUsageLine(JSON.stringify({ type: 'assistant', message: { id: 'x', content: [] } }))).toBeNull();
  });

  it('counts one request once across files (a resumed session repeats history)', () => {
    const one = readUsage(line({ input_tokens: 5, output_tokens: 7 }));
    expect(totalUsage(mergeRequests([one, one]))).toMatchObject({ requests: 1, input: 5, output: 7 });
  });
});

describe('findTranscripts and loadUsage', () => {
  function claudeDir(): { dir: string; main: string; sub: string } {
    const dir = tempDir();
    const session = '440006e1-6d1f-4ca6-ba2e-2570f1e9de79';
    const project = join(dir, 'projects', '-work-demo');
    mkdirSync(join(project, session, 'subagents'), { recursive: true });
    mkdirSync(join(project, session, 'tool-results'), { recursive: true });
    const main = join(project, `${session}.jsonl`);
    const sub = join(project, session, 'subagents', 'agent-abb395ba8daf1b837.jsonl');
    cpSync(join(DIR, 'transcript-2.1.332-demo.jsonl'), main);
    cpSync(join(DIR, 'transcript-2.1.332-subagent.jsonl'), sub);
    writeFileSync(join(project, session, 'tool-results', 'x.txt'), 'not a transcript');
    return { dir, main, sub };
  }

  it('finds session files and subagent files under projects/, not tool results', () => {
    const { dir, main, sub } = claudeDir();
    expect(findTranscripts(dir)).toEqual([sub, main].sort());
    expect(findTranscripts(join(dir, 'missing'))).toEqual([]);
  });

  it('parses unchanged files once: the second run answers from the cache', () => {
    const { dir, main } = claudeDir();
    const data = tempDir();
    const first = loadUsage(findTranscripts(dir), data);
    expect(first).toMatchObject({ files: 2, parsed: 2, cached: 0 });
    const second = loadUsage(findTranscripts(dir), data);
    expect(second).toMatchObject({ files: 2, parsed: 0, cached: 2 });
    expect(second.requests).toEqual(first.requests);
    utimesSync(main, new Date(), new Date(Date.now() + 5_000));
    expect(loadUsage(findTranscripts(dir), data)).toMatchObject({ parsed: 1, cached: 1 });
  });

  it('rebuilds a damaged cache instead of failing', () => {
    const { dir } = claudeDir();
    const data = tempDir();
    writeFileSync(join(data, 'usage-cache.json'), '{not json');
    expect(loadUsage(findTranscripts(dir), data)).toMatchObject({ parsed: 2 });
  });
});
