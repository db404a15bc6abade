/**
 * The gateway with the real Claude Code client (issue 8): `claude -p` points ANTHROPIC_BASE_URL at
 * `tokenless gateway`, which forwards to the test's fake Anthropic server. The streamed session must complete as it
 * does directly (a tool call and its result round-trip through the proxy), and the gateway's usage log must hold one
 * row per forwarded call. Byte-identical forwarding in the default mode is checked in gateway.test.ts.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway } from '../helpers/gateway-process.ts';
import { useTempDirs } from '../helpers/temp.ts';
import { startFakeAnthropic } from './claude/fake-anthropic.ts';
import { claudeBinary, runClaude, sessionDirs, sessionEnv } from './claude/session.ts';

const tempDir = useTempDirs();
const CLAUDE = claudeBinary();
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
});


if (CLAUDE === null) console.warn('gateway-real-client: Claude Code is not installed; run `bash scripts/install-claude-code.sh` (skipping)');

describe.skipIf(CLAUDE === null)('tokenless gateway in front of the real Claude Code client', () => {
  it('forwards a tool-using session unchanged and logs its usage', async () => {
    const dirs = sessionDirs(tempDir());
    const gatewayData = tempDir();
    const upstream = await startFakeAnthropic([{ tools: [{ name: 'Bash', input: { command: 'echo through-the-gateway', description: 'echo' } }] }, { text: 'done' }]);
    try {
      const gateway = await startGateway(upstream.url, gatewayData, [], (child) => children.push(child));
      const run = await runClaude(CLAUDE ?? '', dirs, sessionEnv(dirs, gateway), ['--dangerously-skip-permissions']);
      expect(run.status, run.stderr).toBe(0);
      expect((JSON.parse(run.stdout) as { result: string; is_error: boolean }).is_error).toBe(false);

      const messages = upstream.requests.filter((request) => request.url.startsWith('/v1/messages') && request.body !== null);
      expect(messages.length).toBeGreaterThanOrEqual(2);
      const last = JSON.stringify(messages.at(-1)?.body);
      expect(last).toContain('through-the-gateway');

      const log = readFileSync(join(gatewayData, 'usage.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(log.length).toBe(messages.length);
      for (const row of log) expect(row).toMatchObject({ status: 200 });
    } finally {
      await upstream.close();
    }
  }, 240_000);
});
