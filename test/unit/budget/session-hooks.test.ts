import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { budgetEvent } from '../../../src/harness/claude-code/session.ts';
import { budgetLine, handleSessionEvent, type SessionHookResult, type SessionRuntime } from '../../../src/budget/session-hooks.ts';
import { budgetSettingsFrom } from '../../../src/budget/settings.ts';
import { BUILTIN_PROFILES } from '../../../src/budget/profiles.ts';
import { renderSnapshot, sessionSnapshot } from '../../../src/budget/snapshot.ts';
import { readClaudeCodeTranscript } from '../../../src/transcript/claude-code-turns.ts';
import { FIXTURES_DIR } from '../../helpers/fixtures.ts';

const REAL = join(FIXTURES_DIR, 'transcripts', 'claude-code', 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');
const sample = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(FIXTURES_DIR, 'claude-code-hook-samples', `${name}.json`), 'utf8')) as Record<string, unknown>;

/** An in-memory disk: the transcript at a fixed path plus whatever the hooks write. */
function memoryRuntime(transcriptText: string, contextWindow = 200_000): SessionRuntime & { files: Map<string, string> } {
  const files = new Map<string, string>([['/t.jsonl', transcriptText]]);
  return {
    files,
    dataDir: '/data',
    settings: budgetSettingsFrom({ context_window: contextWindow }),
    readFile: (path) => files.get(path) ?? null,
    writeFile: (path, text) => void files.set(path, text),
    parseTranscript: readClaudeCodeTranscript,
  };
}

/** Claude Code's event (the hook samples), through its adapter into the budget's neutral event. */
function ask(raw: Record<string, unknown>, runtime: SessionRuntime): SessionHookResult | null {
  const event = budgetEvent(raw);
  return event === null ? null : handleSessionEvent(event, runtime);
}

const usageLine = (tokens: number): string => JSON.stringify({ type: 'assistant', requestId: `r${tokens}`, message: { id: `m${tokens}`, usage: { input_tokens: 0, cache_read_input_tokens: tokens, cache_creation_input_tokens: 0 } } });

describe('budgetLine', () => {
  it('states usage against the usable window and the rung advice', () => {
    expect(budgetLine(134_400, 200_000, BUILTIN_PROFILES.agentic)).toEqual({
      rung: 'drop_stale_ephemeral',
      text: '[syt] context at 84% of the usable window (134,400 of 160,000 tokens, agentic profile): old tool output is the first thing to let go.',
    });
    expect(budgetLine(1_000, 200_000, BUILTIN_PROFILES.agentic).rung).toBeNull();
  });
});

describe('handleSessionEvent', () => {
  const prompt = { ...sample('UserPromptSubmit'), transcript_path: '/t.jsonl' };

  it('says nothing below 80% and reports each new rung once', () => {
    const runtime = memoryRuntime(usageLine(100_000));
    expect(ask(prompt, runtime)).toEqual({ context: null, reason: 'below 80%' });
    runtime.files.set('/t.jsonl', usageLine(140_000));
    const first = ask(prompt, runtime);
    expect(first?.context).toMatch(/^\[syt\] context at 88%/);
    expect(ask(prompt, runtime)).toEqual({ context: null, reason: 'rung already reported' });
    runtime.files.set('/t.jsonl', usageLine(153_000));
    expect(ask(prompt, runtime)?.reason).toBe('crossed compact_session');
  });

  it('uses context_tokens on resume and stays quiet on a fresh start', () => {
    const runtime = memoryRuntime('');
    expect(ask({ ...sample('SessionStart'), transcript_path: '/t.jsonl' }, runtime)?.reason).toBe('fresh session');
    const resumed = ask({ ...sample('SessionStart__resume'), context_tokens: 150_000 }, runtime);
    expect(resumed?.reason).toBe('crossed summarize_ephemeral');
  });

  it('snapshots key facts before compaction and re-injects them after', () => {
    const runtime = memoryRuntime(readFileSync(REAL, 'utf8'));
    const pre = ask({ ...sample('PreCompact'), transcript_path: '/t.jsonl' }, runtime);
    expect(pre).toEqual({ context: null, reason: 'snapshot saved' });
    const after = ask(sample('SessionStart__compact'), runtime);
    expect(after?.reason).toBe('snapshot re-injected');
    const context = after?.context ?? '';
    expect(context).toMatch(/^\[syt\] Key facts saved before compaction:\n/);
    expect(context).toContain('Files changed:');
  });

  it('ignores other events', () => {
    expect(ask(sample('Stop'), memoryRuntime(''))).toBeNull();
  });
});

describe('session snapshot', () => {
  it('lists open todos, edited files and the last errors of the real session', () => {
    const snapshot = sessionSnapshot(readClaudeCodeTranscript(readFileSync(REAL, 'utf8'), 'real'));
    expect(snapshot.touchedFiles.length).toBeGreaterThan(0);
    expect(snapshot.touchedFiles.length).toBeLessThanOrEqual(15);
    expect(renderSnapshot({ openTasks: [], touchedFiles: [], lastErrors: [] })).toBe('');
    expect(renderSnapshot({ openTasks: ['a (pending)'], touchedFiles: ['x.ts'], lastErrors: [] })).toBe('[syt] Key facts saved before compaction:\nOpen tasks: a (pending)\nFiles changed: x.ts');
  });
});
