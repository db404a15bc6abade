import { afterEach, describe, expect, it } from 'vitest';
import { answerClaudeCodeEvent } from '../../../../src/harness/claude-code/answer.ts';
import { answerSessionEvent } from '../../../../src/harness/claude-code/session.ts';
import { loadConfig } from '../../../../src/config/config.ts';
import { retrieveBytes } from '../../../../src/runtime/retrieve.ts';
import { Runtime } from '../../../../src/runtime/runtime.ts';
import { markersIn, RETRIEVAL_GUIDE } from '../../../../src/store/marker.ts';
import { READS_LIMITS, READS_TEXT_LIMITS, ReadLedger } from '../../../../src/store/reads.ts';
import { useTempDirs } from '../../../helpers/temp.ts';

const tempDir = useTempDirs();
const runtimes: Runtime[] = [];
afterEach(() => {
  for (const runtime of runtimes.splice(0)) runtime.close();
});

/** A source file as Read shows it: line-numbered by the client, the hook sees the bare text. */
const SOURCE = Array.from({ length: 60 }, (_, i) => `export function handler${i}(request, response) { return response.status(${200 + i}).json({ ok: true }); }`).join('\n');

let ids = 0;
function readEvent(content: string, input: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    session_id: 'sess-1',
    transcript_path: '/nowhere.jsonl',
    cwd: '/work',
    hook_event_name: 'PostToolUse',
    tool_name: 'Read',
    tool_input: { file_path: '/work/src/app.js', ...input },
    tool_response: { type: 'text', file: { filePath: '/work/src/app.js', content, numLines: content.split('\n').length, startLine: 1, totalLines: 60 } },
    tool_use_id: `toolu_${++ids}`,
    ...extra,
  };
}

async function post(runtime: Runtime, event: Record<string, unknown>): Promise<Record<string, unknown> | null> {
  const answered = await answerClaudeCodeEvent(event, runtime, { wrapperCommand: '/x/tokenless', env: {} });
  if ('error' in answered) throw new Error(answered.error);
  const answer = answered.answer as { hookSpecificOutput?: { updatedToolOutput?: Record<string, unknown> } } | null;
  return answer?.hookSpecificOutput?.updatedToolOutput ?? null;
}

function setup(): { runtime: Runtime; dataDir: string } {
  const dataDir = tempDir();
  const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: dataDir }));
  runtimes.push(runtime);
  return { runtime, dataDir };
}

describe('Claude Code Read re-reads', () => {
  it('shows the first Read whole and points an identical second one at it, recoverably, in Read\'s shape', async () => {
    const { runtime } = setup();
    const first = readEvent(SOURCE);
    expect(await post(runtime, first)).toBeNull();
    const second = await post(runtime, readEvent(SOURCE));
    expect(second).toMatchObject({ type: 'text', file: { filePath: '/work/src/app.js', numLines: 1, startLine: 1, totalLines: 60 } });
    const pointer = String((second?.['file'] as { content: string }).content);
    expect(pointer).not.toContain('\n');
    expect(pointer).toContain(`tool call ${String(first['tool_use_id'])}`);
    expect(pointer).toContain('not file content');
    const [key] = markersIn(pointer);
    const back = retrieveBytes(runtime, key ?? '', { sessionId: 'sess-1', visibleMarkers: [], anySession: false });
    expect(back.ok && back.bytes.toString('utf8')).toBe(SOURCE);
  });

  it('shows the text again for another agent or session, and a range read whole when the file read whole changed', async () => {
    const { runtime } = setup();
    await post(runtime, readEvent(SOURCE));
    // A subagent's context never held the main agent's result.
    expect(await post(runtime, readEvent(SOURCE, {}, { agent_id: 'sub-1' }))).toBeNull();
    expect(await post(runtime, readEvent(SOURCE, {}, { session_id: 'sess-2' }))).toBeNull();
    const lines = SOURCE.split('\n');
    const range = (text: string): Record<string, unknown> => {
      const event = readEvent(text, { offset: 10, limit: 20 });
      const file = (event['tool_response'] as { file: Record<string, unknown> }).file;
      Object.assign(file, { startLine: 10, numLines: 20 });
      return event;
    };
    const slice = lines.slice(9, 29).join('\n');
    expect(await post(runtime, range(slice.replace('handler12(', 'renamed12(')))).toBeNull();
  });

  it('shows a changed re-read as the changed lines with their file line numbers, retrievable, then diffs the next against it', async () => {
    const { runtime } = setup();
    const first = readEvent(SOURCE);
    await post(runtime, first);
    const edited = SOURCE.replace('handler7(', 'renamed7(').replace('status(240)', 'status(500)');
    const view = await post(runtime, readEvent(edited));
    const content = String((view?.['file'] as { content: string }).content);
    expect(view?.['file']).toMatchObject({ filePath: '/work/src/app.js', startLine: 1, numLines: content.split('\n').length });
    expect(content.split('\n').slice(1)).toEqual([
      '@@ -8,1 +8,1 @@',
      `-8: ${SOURCE.split('\n')[7] ?? ''}`,
      `+8: ${edited.split('\n')[7] ?? ''}`,
      '@@ -41,1 +41,1 @@',
      `-41: ${SOURCE.split('\n')[40] ?? ''}`,
      `+41: ${edited.split('\n')[40] ?? ''}`,
    ]);
    expect(content).toContain(`tool call ${String(first['tool_use_id'])}`);
    expect(content).toContain('not file content');
    const [key] = markersIn(content);
    const back = retrieveBytes(runtime, key ?? '', { sessionId: 'sess-1', visibleMarkers: [], anySession: false });
    expect(back.ok && back.bytes.toString('utf8')).toBe(edited);
    // The model now holds the edited text: an added line diffs against it, and the same text again is a pointer.
    const again = await post(runtime, readEvent(`${edited}\n// appended`));
    expect(String((again?.['file'] as { content: string }).content).split('\n').slice(1)).toEqual(['@@ -61,0 +61,1 @@', '+61: // appended']);
    expect(String(((await post(runtime, readEvent(`${edited}\n// appended`)))?.['file'] as { content: string }).content)).toMatch(/^\[tokenless: same text/);
  });

  it('shows the whole file when most of it changed, and after compaction', async () => {
    const { runtime, dataDir } = setup();
    await post(runtime, readEvent(SOURCE));
    const rewritten = SOURCE.split('\n').map((line, i) => (i % 2 === 0 ? line.replace('handler', 'route') : line)).join('\n');
    expect(await post(runtime, readEvent(rewritten))).toBeNull();
    answerSessionEvent({ session_id: 'sess-1', cwd: '/work', hook_event_name: 'SessionStart', source: 'compact' }, dataDir);
    expect(await post(runtime, readEvent(rewritten.replace('handler1(', 'renamed1(')))).toBeNull();
  });

  it('points a range read inside a file read whole and unchanged at those lines of that Read', async () => {
    const { runtime } = setup();
    const first = readEvent(SOURCE);
    await post(runtime, first);
    const event = readEvent(SOURCE.split('\n').slice(9, 29).join('\n'), { offset: 10, limit: 20 });
    Object.assign((event['tool_response'] as { file: Record<string, unknown> }).file, { startLine: 10, numLines: 20 });
    const view = await post(runtime, event);
    expect(view?.['file']).toMatchObject({ startLine: 10, numLines: 1 });
    expect(String((view?.['file'] as { content: string }).content)).toMatch(new RegExp(`^\\[tokenless: same text as lines 10-29 of your earlier Read of this whole file \\(tool call ${String(first['tool_use_id'])}\\)`));
  });

  it('leaves small reads alone and never touches the ledger for them', async () => {
    const { runtime, dataDir } = setup();
    const small = 'const a = 1;\n';
    expect(await post(runtime, readEvent(small))).toBeNull();
    expect(await post(runtime, readEvent(small))).toBeNull();
    const ledger = ReadLedger.open(dataDir);
    expect(ledger.count('sess-1')).toBe(0);
    ledger.close();
  });

  it('forgets what is in context on PreCompact and on SessionStart after compact or clear, not on resume', async () => {
    const { runtime, dataDir } = setup();
    const session = (extra: Record<string, unknown>): void => void answerSessionEvent({ session_id: 'sess-1', cwd: '/work', ...extra }, dataDir);
    await post(runtime, readEvent(SOURCE));
    session({ hook_event_name: 'SessionStart', source: 'resume' });
    expect(await post(runtime, readEvent(SOURCE))).not.toBeNull();
    for (const event of [{ hook_event_name: 'PreCompact', trigger: 'manual' }, { hook_event_name: 'SessionStart', source: 'compact' }, { hook_event_name: 'SessionStart', source: 'clear' }]) {
      session(event);
      expect(await post(runtime, readEvent(SOURCE)), JSON.stringify(event)).toBeNull();
      expect(await post(runtime, readEvent(SOURCE)), JSON.stringify(event)).not.toBeNull();
    }
  });

  it('bounds the ledger per session, oldest first', () => {
    let now = 1_000;
    const ledger = ReadLedger.open(tempDir(), () => now);
    for (let i = 0; i < READS_LIMITS.perSession + 5; i++) {
      now += 1;
      ledger.record({ sessionId: 's', agent: '', path: `/f${i}`, range: ':' }, { digest: 'd', toolUseId: `t${i}` });
    }
    expect(ledger.count('s')).toBe(READS_LIMITS.perSession);
    expect(ledger.seen({ sessionId: 's', agent: '', path: '/f0', range: ':' })).toBeUndefined();
    expect(ledger.seen({ sessionId: 's', agent: '', path: `/f${READS_LIMITS.perSession + 4}`, range: ':' })).toEqual({ digest: 'd', toolUseId: `t${READS_LIMITS.perSession + 4}` });
    expect(ledger.texts('s')).toBe(0);
    ledger.record({ sessionId: 's', agent: '', path: '/big', range: ':' }, { digest: 'd', toolUseId: 't', text: 'x'.repeat(READS_TEXT_LIMITS.maxBytes + 1) });
    for (let i = 0; i < READS_TEXT_LIMITS.perSession + 3; i++) {
      now += 1;
      ledger.record({ sessionId: 's', agent: '', path: `/t${i}`, range: ':' }, { digest: 'd', toolUseId: `t${i}`, text: 'kept' });
    }
    expect(ledger.seen({ sessionId: 's', agent: '', path: '/big', range: ':' })?.text).toBeUndefined();
    expect(ledger.texts('s')).toBe(READS_TEXT_LIMITS.perSession);
    expect(ledger.seen({ sessionId: 's', agent: '', path: `/t${READS_TEXT_LIMITS.perSession + 2}`, range: ':' })?.text).toBe('kept');
    now += READS_LIMITS.ttlMs;
    expect(ledger.seen({ sessionId: 's', agent: '', path: `/f${READS_LIMITS.perSession + 4}`, range: ':' })).toBeUndefined();
    ledger.close();
  });
});

describe('SessionStart context', () => {
  it('explains the retrieval line once at every session start, after any budget text', () => {
    const dataDir = tempDir();
    const fresh = answerSessionEvent({ session_id: 's', hook_event_name: 'SessionStart', source: 'startup' }, dataDir).answer;
    expect(fresh).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: RETRIEVAL_GUIDE } });
    expect(answerSessionEvent({ session_id: 's', hook_event_name: 'UserPromptSubmit', prompt: 'x' }, dataDir).answer).toBeNull();
  });
});
