/**
 * `tokenless serve`: the HTTP hook server gives the same answers as the command hook, on 127.0.0.1 only, and only to
 * callers that carry the token `syt init --http` wrote into the hook's headers.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { FIXTURES_DIR, loadCorpusCase } from '../helpers/fixtures.ts';
import { useTempDirs } from '../helpers/temp.ts';
import { startServe, type ServeProcess } from './claude/serve-process.ts';

const tempDir = useTempDirs();
const sample = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(FIXTURES_DIR, 'claude-code-hook-samples', name), 'utf8')) as Record<string, unknown>;

function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('tokenless serve', () => {
  let dataDir: string;
  let server: ServeProcess;
  let token: string;
  beforeAll(async () => {
    dataDir = join(tempDir(), 'data');
    server = await startServe({ TOKENLESS_DATA_DIR: dataDir, HOME: dataDir });
    token = readFileSync(join(dataDir, 'serve-token'), 'utf8').trim();
  });
  afterAll(async () => server.stop());

  it('answers PreToolUse exactly like the command hook', async () => {
    const input = JSON.stringify(sample('PreToolUse__Bash.json'));
    const viaHttp = await post(`${server.url}/tokenless/claude-code/pre_tool`, input, { 'X-Tokenless-Token': token });
    const viaCommand = runCli(['hook', 'pre_tool'], { input, env: { TOKENLESS_DATA_DIR: dataDir, HOME: dataDir } });
    expect(viaHttp.status).toBe(200);
    expect(JSON.parse(viaHttp.body)).toEqual(JSON.parse(viaCommand.stdout));
    expect(viaHttp.body).toMatch(/"permissionDecision":"allow"/);
  });

  it('answers PostToolUse with the shorter output in the tool shape, like the command hook', async () => {
    const event = sample('PostToolUse__Bash.json');
    event['tool_input'] = { command: 'npm view express --json' };
    event['tool_response'] = { stdout: loadCorpusCase('data-npm-view-express-json').stdout, stderr: '', interrupted: false, isImage: false, noOutputExpected: false };
    const input = JSON.stringify(event);
    const viaHttp = await post(`${server.url}/tokenless/claude-code/post_tool`, input, { 'X-Tokenless-Token': token });
    const viaCommand = runCli(['hook', 'post_tool'], { input, env: { TOKENLESS_DATA_DIR: dataDir, HOME: dataDir } });
    expect(JSON.parse(viaHttp.body)).toEqual(JSON.parse(viaCommand.stdout));
    expect(viaHttp.body).toMatch(/updatedToolOutput/);
  });

  it('answers {} when there is nothing to do', async () => {
    const result = await post(`${server.url}/tokenless/claude-code/post_tool`, JSON.stringify(sample('PostToolUse__Agent.json')), { 'X-Tokenless-Token': token });
    expect(result).toEqual({ status: 200, body: '{}' });
  });

  it.each([
    ['no token', {}, 401],
    ['a wrong token', { 'X-Tokenless-Token': '0'.repeat(64) }, 401],
    ['a foreign Host (DNS rebinding)', { host: 'evil.example:80' }, 421],
  ])('refuses %s', async (_name, headers: Record<string, string>, status) => {
    const result = await post(`${server.url}/tokenless/claude-code/pre_tool`, JSON.stringify(sample('PreToolUse__Bash.json')), headers);
    expect(result.status).toBe(status);
    expect(result.body).not.toMatch(/updatedInput/);
  });

  it('answers the budget session events like the command hook, and only session events there', async () => {
    const event = JSON.stringify({
      session_id: 'serve-session',
      transcript_path: join(FIXTURES_DIR, 'transcripts', 'claude-code', 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'),
      hook_event_name: 'PreCompact',
      trigger: 'manual',
    });
    const headers = { 'X-Tokenless-Token': token };
    expect(await post(`${server.url}/tokenless/claude-code/session`, event, headers)).toEqual({ status: 200, body: '{}' });
    const started = await post(`${server.url}/tokenless/claude-code/session`, JSON.stringify({ session_id: 'serve-session', hook_event_name: 'SessionStart', source: 'compact' }), headers);
    const viaCommand = runCli(['hook', 'session'], { input: JSON.stringify({ session_id: 'serve-session', hook_event_name: 'SessionStart', source: 'compact' }), env: { TOKENLESS_DATA_DIR: dataDir, HOME: dataDir } });
    expect(started.status).toBe(200);
    expect(JSON.parse(started.body)).toEqual(JSON.parse(viaCommand.stdout));
    expect(started.body).toMatch(/additionalContext/);
    expect((await post(`${server.url}/tokenless/claude-code/session`, JSON.stringify(sample('PreToolUse__Bash.json')), headers)).status).toBe(400);
  });

  it('rejects a body for the wrong event and a non-JSON body with 400', async () => {
    const headers = { 'X-Tokenless-Token': token };
    expect((await post(`${server.url}/tokenless/claude-code/pre_tool`, JSON.stringify(sample('PostToolUse__Bash.json')), headers)).status).toBe(400);
    expect((await post(`${server.url}/tokenless/claude-code/pre_tool`, '{not json', headers)).status).toBe(400);
    const deep = JSON.stringify({ ...sample('PreToolUse__Bash.json'), extra: '@DEEP@' }).replace('"@DEEP@"', `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(await post(`${server.url}/tokenless/claude-code/pre_tool`, deep, headers)).toEqual({ status: 400, body: '{"error":"input nests deeper than 256 levels"}' });
  });

  it('serves only the harnesses with HTTP hooks, at their own path', async () => {
    const headers = { 'X-Tokenless-Token': token };
    const beforeTool = JSON.stringify({ session_id: 's', cwd: '/tmp', hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'git status' } });
    expect((await post(`${server.url}/tokenless/gemini-cli/pre_tool`, beforeTool, headers)).status).toBe(404);
    expect((await post(`${server.url}/tokenless/claude-code/retrieve`, JSON.stringify(sample('PreToolUse__Bash.json')), headers)).status).toBe(404);
  });

  it('has a health endpoint for syt doctor', async () => {
    const response = await fetch(`${server.url}/tokenless/health`);
    expect(response.status).toBe(200);
  });
});
