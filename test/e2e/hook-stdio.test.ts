/**
 * The hook reads fd 0 and writes fds 1 and 2 without Node's streams (hooks/stdio.ts): a harness that never closes
 * stdin still gets a passthrough within the deadline, a reader that went away is no crash, and a large answer
 * arrives whole through a pipe.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.ts';
import { ROOT } from '../helpers/root.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();

function start(args: string[], nodeArgs: string[] = []) {
  return spawn(process.execPath, [...nodeArgs, CLI, 'hook', ...args], { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: tempDir(), TOKENLESS_DATA_DIR: tempDir() }, stdio: ['pipe', 'pipe', 'pipe'] });
}
function finished(child: ReturnType<typeof start>): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const began = Date.now();
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - began })));
}

describe('tokenless hook on its file descriptors', () => {
  it('passes through when stdin is never closed, within the 10 s deadline, and exits (0, nothing on stdout)', async () => {
    const child = start(['pre_tool']);
    child.stdin.write('{"hook_event_name":"PreToolUse"');
    const result = await finished(child);
    child.stdin.destroy();
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('passthrough: stdin not closed within 10000 ms');
    expect(result.ms).toBeLessThan(14_000);
  }, 20_000);

  it('a large answer arrives whole through a pipe read slowly', async () => {
    const sample = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/claude-code-hook-samples/PostToolUse__Bash.json'), 'utf8')) as { tool_response: Record<string, unknown> };
    const report = readFileSync(join(ROOT, 'test/fixtures/corpus-commands/cases/test-pytest-fail-more-itertools/stdout.txt'), 'utf8');
    const event = { ...sample, tool_input: { command: './scripts/check.sh', description: 'Run the checks' }, tool_response: { ...sample.tool_response, stdout: report, stderr: '' } };
    const child = start(['post_tool']);
    child.stdout.pause();
    setTimeout(() => child.stdout.resume(), 300);
    child.stdin.end(JSON.stringify(event));
    const result = await finished(child);
    expect(result.code, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout) as { hookSpecificOutput: { hookEventName: string; updatedToolOutput: unknown } };
    expect(answer.hookSpecificOutput.hookEventName).toBe('PostToolUse');
    expect(JSON.stringify(answer.hookSpecificOutput.updatedToolOutput)).toContain('tokenless retrieve');
  });

  // Node harnesses give the hook a socket (child_process 'pipe' is a socketpair), as this test's spawn does.
  it('reads a socket stdin written in two parts 300 ms apart, whole, without loading node:net', async () => {
    const probe = join(tempDir(), 'probe.cjs');
    writeFileSync(probe, "const kind = require('fs').fstatSync(0).isSocket() ? 'socket' : 'other'; process.on('exit', () => require('fs').writeSync(2, `stdin=${kind} net=${process.moduleLoadList.includes('NativeModule net')}\\n`));\n");
    const child = start(['pre_tool'], ['-r', probe]);
    const event = JSON.stringify({ session_id: 's', transcript_path: '/nonexistent', cwd: '/tmp', permission_mode: 'bypassPermissions', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git status' }, tool_use_id: 't' });
    child.stdin.write(event.slice(0, 40));
    setTimeout(() => child.stdin.end(event.slice(40)), 300);
    const result = await finished(child);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('stdin=socket net=false');
    expect((JSON.parse(result.stdout) as { hookSpecificOutput: { hookEventName: string } }).hookSpecificOutput.hookEventName).toBe('PreToolUse');
  });

  it('a reader that went away is not a crash: no stack trace, the exit code of the answer', async () => {
    const child = start(['pre_tool']);
    child.stdout.destroy();
    child.stdin.end(JSON.stringify({ session_id: 's', transcript_path: '/nonexistent', cwd: '/tmp', permission_mode: 'bypassPermissions', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git status' }, tool_use_id: 't' }));
    const result = await finished(child);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(/Error|at /);
  });
});
