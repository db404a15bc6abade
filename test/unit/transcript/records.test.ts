import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTranscripts } from '../../../commands/shared/transcript-sources.ts';
import { readSimSession } from '../../../src/cost/requests.ts';
import { readRecordedSession } from '../../../src/replay/transcript.ts';
import { readUsage } from '../../../src/transcript/claude-code.ts';
import { readClaudeCodeTranscript } from '../../../src/transcript/claude-code-turns.ts';
import { findTranscripts } from '../../../src/transcript/files.ts';
import { recordLines, transcriptForm } from '../../../src/transcript/records.ts';
import { ROOT } from '../../helpers/root.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'transcripts', 'claude-code', 'transcript-2.1.332-subagent.jsonl');
const CHATJSON = join(ROOT, '..', 'shared', 'corpus', 'transcripts', 'claude-code-chatjson');
if (!existsSync(CHATJSON)) console.warn(`skipping the real-data case: the chat.json sessions of the shared corpus (${CHATJSON}) is not on this machine`);
const tempDir = useTempDirs();

/** The same records as a Stop hook dumps them: one indented JSON array. */
function asChatJson(jsonl: string): string {
  const records = jsonl.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as unknown);
  return JSON.stringify(records, null, 2);
}

describe('transcript form', () => {
  it('is told by the first bytes, not the name', () => {
    expect(transcriptForm('{"type":"user"}\n{"type":"assistant"}\n')).toBe('jsonl');
    expect(transcriptForm('[\n  {\n    "type": "user"\n  }\n]')).toBe('json-array');
    expect(transcriptForm('\uFEFF  [{"type":"user"}]')).toBe('json-array');
    expect(transcriptForm('[]')).toBe('json-array');
    // A JSON array of numbers is not a dump of records.
    expect(transcriptForm('[1, 2]')).toBe('jsonl');
    expect(transcriptForm('')).toBe('jsonl');
  });

  it('looks at a bounded head only', () => {
    expect(transcriptForm(`${' '.repeat(10_000)}[{"type":"user"}]`)).toBe('jsonl');
  });

  it('gives a cut dump as one unreadable line, and a non-record entry as a blank one', () => {
    const cut = '[\n  {"type": "user", "uuid": "a"},\n  {"type": "assi';
    expect(recordLines(cut)).toEqual([cut]);
    expect(recordLines('[{"type":"user"}, 3, null]')).toEqual(['{"type":"user"}', '', '']);
  });
});

describe('every reader reads a chat.json dump as the JSONL it holds', () => {
  const jsonl = readFileSync(FIXTURE, 'utf8');
  const dump = asChatJson(jsonl);

  it('usage, replay calls, cache simulation and the turn model agree', () => {
    expect(readUsage(dump)).toEqual(readUsage(jsonl));
    const fromJsonl = readRecordedSession(jsonl, 'x');
    const fromDump = readRecordedSession(dump, 'x');
    expect(fromDump).toEqual(fromJsonl);
    expect(fromDump.calls.length).toBeGreaterThan(0);
    expect(fromDump.requests.length).toBeGreaterThan(0);
    const simDump = readSimSession(dump, 'x');
    const simJsonl = readSimSession(jsonl, 'x');
    expect(simDump.requests.map((r) => [r.usage.key, r.head, r.sentAt, r.chainText()])).toEqual(simJsonl.requests.map((r) => [r.usage.key, r.head, r.sentAt, r.chainText()]));
    const turns = readClaudeCodeTranscript(dump, 'x');
    expect(turns).toEqual(readClaudeCodeTranscript(jsonl, 'x'));
  });

  it('is found and read by analyze and cost history', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'logs'));
    writeFileSync(join(dir, 'logs', 'project__abc__chat.json'), dump);
    writeFileSync(join(dir, 'logs', 'notes.json'), '{"not":"a transcript"}');
    expect(findTranscripts(dir)).toEqual([join(dir, 'logs', 'project__abc__chat.json')]);
    const [read] = readTranscripts(join(dir, 'logs'), (text) => text.length);
    expect(read?.transcript.requests.length).toBe(readClaudeCodeTranscript(jsonl, 'x').requests.length);
  });

  it.skipIf(!existsSync(CHATJSON))('reads every record of real chat.json sessions (the three smallest: CI time)', () => {
    const names = readdirSync(CHATJSON).filter((n) => n.endsWith('chat.json'));
    const smallest = names.map((name) => ({ name, size: statSync(join(CHATJSON, name)).size })).sort((a, b) => a.size - b.size).slice(0, 3);
    for (const { name } of smallest) {
      const text = readFileSync(join(CHATJSON, name), 'utf8');
      const session = readRecordedSession(text, name);
      expect(session.skippedLines, name).toBe(0);
      expect(session.calls.length, name).toBeGreaterThan(0);
      expect(session.requests.length, name).toBeGreaterThan(0);
    }
  });
});
