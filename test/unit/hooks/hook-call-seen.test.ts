// What a hook call reports about itself for the hook-call log (issue 26): the harness whose event it was and the
// engine's disposition, for every path through runHook (a lifecycle event, a session event, a native envelope).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runHook, type HookCallSeen } from '../../../hooks/hook.ts';
import { ROOT } from '../../helpers/root.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const tempDir = useTempDirs();
const sample = (name: string): string => readFileSync(join(ROOT, 'test/fixtures/claude-code-hook-samples', name), 'utf8');

afterEach(() => vi.unstubAllEnvs());

async function seenFor(lifecycle: string, input: string): Promise<HookCallSeen> {
  vi.stubEnv('TOKENLESS_DATA_DIR', tempDir());
  const seen: HookCallSeen = {};
  await runHook(lifecycle, Readable.from([input]), seen);
  return seen;
}

describe('the hook call as the hook-call log sees it', () => {
  it('a Claude Code PostToolUse: its harness and what the engine decided', async () => {
    const seen = await seenFor('post_tool', sample('PostToolUse__Grep.json'));
    expect(seen.harness).toBe('claude-code');
    expect(['applied', 'no_savings', 'passthrough']).toContain(seen.disposition);
  });

  it('a session event names its harness; no engine ran, so no disposition', async () => {
    expect(await seenFor('session', sample('SessionEnd.json'))).toEqual({ harness: 'claude-code' });
  });

  it('our own envelope is native', async () => {
    const envelope = { protocol_version: 2, operation: 'pre_tool', attribution: { agent_id: 'sdk', session_id: 's', tool_use_id: 't' }, input: { tool_name: 'Bash', arguments: { command: 'git status' }, command_field: 'command' } };
    const seen = await seenFor('pre_tool', JSON.stringify(envelope));
    expect(seen.harness).toBe('native');
  });
});
