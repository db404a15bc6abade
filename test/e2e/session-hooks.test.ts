/** `tokenless hook session`: the context budget's Claude Code session events, on a real transcript. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { FIXTURES_DIR } from '../helpers/fixtures.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();
const TRANSCRIPT = join(FIXTURES_DIR, 'transcripts', 'claude-code', 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');

function dataDirWithWindow(window: number): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ budget: { context_window: window } }));
  return dir;
}

const event = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: 'fe5e1c67', transcript_path: TRANSCRIPT, cwd: '/tmp', hook_event_name: name, ...extra });

describe('tokenless hook session', () => {
  it('says one line when a ladder threshold is crossed, then stays quiet on the next prompt', () => {
    const env = { TOKENLESS_DATA_DIR: dataDirWithWindow(30_000) };
    const first = runCli(['hook', 'session'], { input: event('UserPromptSubmit', { prompt: 'next step' }), env });
    expect(first.status).toBe(0);
    const answer = JSON.parse(first.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(answer.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    expect(answer.hookSpecificOutput.additionalContext).toMatch(/^\[syt\] context at \d+% of the usable window/);
    const second = runCli(['hook', 'session'], { input: event('UserPromptSubmit', { prompt: 'again' }), env });
    expect(second).toMatchObject({ status: 0, stdout: '' });
  });

  it('says nothing while the context is well within budget', () => {
    const env = { TOKENLESS_DATA_DIR: dataDirWithWindow(1_000_000) };
    expect(runCli(['hook', 'session'], { input: event('UserPromptSubmit', { prompt: 'x' }), env })).toMatchObject({ status: 0, stdout: '' });
  });

  it('saves a snapshot before a compaction and re-injects it when the compacted session starts', () => {
    const env = { TOKENLESS_DATA_DIR: dataDirWithWindow(200_000) };
    expect(runCli(['hook', 'session'], { input: event('PreCompact', { trigger: 'auto' }), env })).toMatchObject({ status: 0, stdout: '' });
    const started = runCli(['hook', 'session'], { input: event('SessionStart', { source: 'compact' }), env });
    expect(started.status).toBe(0);
    const answer = JSON.parse(started.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(answer.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(answer.hookSpecificOutput.additionalContext.length).toBeGreaterThan(20);
  });

  it('never exits 2 (which would block the prompt): malformed input exits 1 with nothing on stdout', () => {
    const env = { TOKENLESS_DATA_DIR: tempDir() };
    expect(runCli(['hook', 'session'], { input: '{not json', env })).toMatchObject({ status: 1, stdout: '' });
    expect(runCli(['hook', 'session'], { input: event('Stop'), env })).toMatchObject({ status: 1, stdout: '' });
  });

  it('is registered by syt init for UserPromptSubmit, SessionStart, PreCompact and SessionEnd', () => {
    const project = tempDir();
    const result = runCli(['init', '--dry-run'], { cwd: project, env: { TOKENLESS_DATA_DIR: tempDir(), HOME: tempDir() } });
    expect(result.status).toBe(0);
    for (const name of ['UserPromptSubmit', 'SessionStart', 'PreCompact', 'SessionEnd']) expect(result.stdout).toContain(name);
    expect(result.stdout).toMatch(/hook session/);
  });
});
