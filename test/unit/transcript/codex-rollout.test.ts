import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRolloutShellCalls } from '../../../src/transcript/codex-rollout.ts';
import { ROOT } from '../../helpers/root.ts';

const CODEX = join(ROOT, '..', 'shared', 'corpus', 'transcripts', 'codex');
if (!existsSync(CODEX)) console.warn(`skipping the real-data case: the Codex rollouts of the shared corpus (${CODEX}) is not on this machine`);
const call = (id: string, command: readonly string[]): string =>
  JSON.stringify({ type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command, workdir: '.' }), call_id: id } });
const output = (id: string, text: string, exitCode: number): string =>
  JSON.stringify({ type: 'response_item', payload: { type: 'function_call_output', call_id: id, output: JSON.stringify({ output: text, metadata: { exit_code: exitCode, duration_seconds: 0.1 } }) } });

describe('Codex rollout shell calls', () => {
  it('pairs each shell call with its output and exit code, and takes the line out of `zsh -lc`', () => {
    const text = [
      JSON.stringify({ type: 'session_meta', payload: { id: 'x' } }),
      call('a', ['zsh', '-lc', 'cargo test && echo done']),
      'not json',
      output('a', 'test result: ok. 1 passed\n', 0),
      call('b', ['ls', '-la']),
      output('b', 'total 0\n', 2),
      call('c', ['bash', '-c', 'never answered']),
      output('unknown', 'stray\n', 0),
    ].join('\n');
    expect(readRolloutShellCalls(text)).toEqual([
      { callId: 'a', line: 'cargo test && echo done', output: 'test result: ok. 1 passed\n', exitCode: 0 },
      { callId: 'b', line: 'ls -la', output: 'total 0\n', exitCode: 2 },
    ]);
  });

  it.skipIf(!existsSync(CODEX))('reads the shell calls of a real rollout', () => {
    const [name] = readdirSync(CODEX).filter((n) => n.endsWith('.jsonl')).sort();
    const calls = readRolloutShellCalls(readFileSync(join(CODEX, name ?? ''), 'utf8'));
    expect(calls.length).toBeGreaterThan(20);
    expect(calls.every((c) => c.line !== '' && typeof c.output === 'string')).toBe(true);
  });
});
