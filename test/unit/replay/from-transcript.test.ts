import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordedSessionOf } from '../../../src/replay/from-transcript.ts';
import { summarizeOutputs } from '../../../src/replay/outputs-summary.ts';
import { openReplaySandbox } from '../../../src/replay/sandbox.ts';
import { replaySession } from '../../../src/replay/session-replay.ts';
import { tokenCounter } from '../../../src/tokens/count.ts';
import { readClaudeCodeTranscript } from '../../../src/transcript/claude-code-turns.ts';
import type { ToolEvent, Transcript } from '../../../src/transcript/turns.ts';
import { FIXTURES_DIR } from '../../helpers/fixtures.ts';

const REAL = join(FIXTURES_DIR, 'transcripts', 'claude-code', 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');

function tool(partial: Partial<ToolEvent>): ToolEvent {
  return { id: 't1', tool: 'run', command: null, filePath: null, kind: 'other', output: '', stdout: null, stderr: null, isError: false, requestIndex: 0, sidechain: false, ...partial };
}

function transcriptOf(tools: readonly ToolEvent[]): Transcript {
  return { source: 'aider', file: 'chat.md', sessionId: 's1', requests: [], tools, messages: [], compactions: [], todos: [], skipped: 0 };
}

describe('a transcript as the session replay input', () => {
  it("maps another agent's shell command onto a Bash call holding its output as stdout", () => {
    const session = recordedSessionOf(transcriptOf([tool({ kind: 'shell', command: 'git status', output: 'On branch main\n' })]));
    expect(session.calls[0]).toMatchObject({ tool: 'Bash', input: { command: 'git status' }, content: 'On branch main\n', toolUseResult: { stdout: 'On branch main\n', stderr: '' } });
    expect(session.timeline[0]).toEqual({ kind: 'result', text: 'On branch main\n', toolUseId: 't1' });
  });

  it('maps a file read onto Read and keeps any other tool under its own name', () => {
    const session = recordedSessionOf(transcriptOf([tool({ id: '', kind: 'read', tool: 'open', filePath: '/a.py', output: 'x' }), tool({ id: 'b', tool: 'submit' })]));
    expect(session.calls.map((call) => [call.toolUseId, call.tool])).toEqual([['replay-0', 'Read'], ['b', 'submit']]);
  });

  it('replays a real Claude Code session through the hooks and never counts a grown output', async () => {
    const count = await tokenCounter();
    const sandbox = openReplaySandbox();
    try {
      const session = recordedSessionOf(readClaudeCodeTranscript(readFileSync(REAL, 'utf8'), 'real'));
      const summary = summarizeOutputs((await replaySession(session, sandbox.contextFor(session, 'default', count))).calls, 'default');
      expect(summary.tool_outputs).toBeGreaterThan(0);
      expect(summary.after_tokens).toBeLessThanOrEqual(summary.before_tokens);
      expect(summary.by_operation.every((row) => row.after <= row.before)).toBe(true);
      expect(summary.note).toMatch(/permission mode default/);
    } finally {
      sandbox.close();
    }
  });
});
