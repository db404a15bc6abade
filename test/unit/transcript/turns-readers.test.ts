import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseAiderCount, readAiderHistory } from '../../../src/transcript/aider.ts';
import { readClaudeCodeTranscript } from '../../../src/transcript/claude-code-turns.ts';
import { readSweAgentTrajectory } from '../../../src/transcript/swe-agent.ts';
import { estimateTokens } from '../../../src/tokens/estimate.ts';
import { FIXTURES_DIR } from '../../helpers/fixtures.ts';

const ccDir = join(FIXTURES_DIR, 'transcripts', 'claude-code');
const ccFiles = readdirSync(ccDir).filter((f) => f.endsWith('.jsonl'));

/** Independent recomputation: straight from the raw lines, first line per message.id + requestId. */
function rawContexts(text: string): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const d = JSON.parse(line) as { type?: string; requestId?: string; message?: { id?: string; usage?: Record<string, number | null> } };
    const usage = d.message?.usage;
    if (d.type !== 'assistant' || usage === undefined) continue;
    const key = `${d.message?.id}:${d.requestId ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push((usage['input_tokens'] ?? 0) + (usage['cache_read_input_tokens'] ?? 0) + (usage['cache_creation_input_tokens'] ?? 0));
  }
  return out;
}

describe('Claude Code turns reader', () => {
  it.each(ccFiles)('per-request context of %s equals the usage fields in the file', (file) => {
    const text = readFileSync(join(ccDir, file), 'utf8');
    const transcript = readClaudeCodeTranscript(text, file);
    expect(transcript.requests.map((r) => r.contextTokens)).toEqual(rawContexts(text));
    expect(transcript.skipped).toBe(0);
  });

  it('reads tool calls, commands, sidechains and todos of the real session', () => {
    const transcript = readClaudeCodeTranscript(readFileSync(join(ccDir, 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'), 'utf8'), 'fe5e');
    expect(transcript.requests).toHaveLength(170);
    expect(transcript.tools.filter((t) => t.tool === 'Bash')).toHaveLength(61);
    expect(transcript.tools.filter((t) => t.tool === 'Read').every((t) => t.filePath !== null)).toBe(true);
    expect(transcript.tools.some((t) => t.sidechain)).toBe(true);
    expect(transcript.todos.length).toBeGreaterThan(0);
  });

  it('records compaction boundaries and survives broken lines', () => {
    const lines = [
      '{"type":"assistant","requestId":"r1","message":{"id":"m1","usage":{"input_tokens":5,"cache_read_input_tokens":100,"cache_creation_input_tokens":20,"output_tokens":3}}}',
      'not json',
      '{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"auto","preTokens":150000}}',
    ];
    const transcript = readClaudeCodeTranscript(lines.join('\n'), 'x');
    expect(transcript.requests[0]?.contextTokens).toBe(125);
    expect(transcript.compactions).toEqual([{ requestIndex: 0, trigger: 'auto', preTokens: 150_000 }]);
    expect(transcript.skipped).toBe(1);
  });
});

describe('aider reader', () => {
  const text = gunzipSync(readFileSync(join(FIXTURES_DIR, 'transcripts', 'aider', 'chat-history.md.gz'))).toString('utf8');
  const sessions = readAiderHistory(text, 'chat-history.md');

  it('finds every "Tokens: N sent" line as a request', () => {
    const lines = text.split('\n').filter((l) => l.startsWith('> Tokens: ')).length;
    expect(lines).toBe(839);
    expect(sessions.reduce((sum, s) => sum + s.requests.length, 0)).toBe(lines);
    expect(sessions.flatMap((s) => s.requests).find((r) => r.contextTokens === 5_244)).toBeDefined();
  });

  it('parses counts as aider prints them', () => {
    expect(parseAiderCount('12,566')).toBe(12_566);
    expect(parseAiderCount('1.2k')).toBe(1_200);
  });

  it('reads /run and Running blocks as shell tool events', () => {
    const tools = sessions.flatMap((s) => s.tools);
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.every((t) => t.kind === 'shell' && t.command !== null)).toBe(true);
  });
});

describe('SWE-agent reader', () => {
  it('counts the context of every call from the history', () => {
    const text = readFileSync(join(FIXTURES_DIR, 'transcripts', 'swe-agent', 'pydicom__pydicom-1458.gpt4.traj'), 'utf8');
    const transcript = readSweAgentTrajectory(text, 'pydicom', estimateTokens);
    expect(transcript).not.toBeNull();
    expect(transcript?.requests).toHaveLength(12);
    expect(transcript?.tools).toHaveLength(12);
    expect(transcript?.reportedTokensSent).toBe(122_612);
    const contexts = transcript?.requests.map((r) => r.contextTokens) ?? [];
    expect(contexts).toEqual([...contexts].sort((a, b) => a - b));
    expect(readSweAgentTrajectory('{"nope":1}', 'x', estimateTokens)).toBeNull();
  });
});
