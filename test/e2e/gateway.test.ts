import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StatsRecorder } from '../../src/store/stats.ts';
import { startGateway as startGatewayProcess } from '../helpers/gateway-process.ts';
import { FIXTURES_DIR } from '../helpers/fixtures.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const captured = (JSON.parse(readFileSync(join(FIXTURES_DIR, 'claude-code-requests', 'first-request-2.1.332-opus-5-5.json'), 'utf8')) as { body: Record<string, unknown> }).body;

const sse = (type: string, data: unknown) => `event: ${type}\ndata: ${JSON.stringify({ type, ...(data as object) })}\n\n`;

/** A fake Anthropic API: records bodies, streams the first event, then waits for `release()` before the rest. */
async function fakeUpstream() {
  const bodies: Buffer[] = [];
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => {
      bodies.push(Buffer.concat(parts));
      res.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': 'req_fake' });
      res.write(sse('message_start', { message: { id: 'msg_1', model: 'claude-opus-5-5', usage: { input_tokens: 12, cache_creation_input_tokens: 9000, cache_read_input_tokens: 0, output_tokens: 1 } } }));
      void released.then(() => {
        res.write(sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'hi' } }));
        res.write(sse('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 42 } }));
        res.end(sse('message_stop', {}));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies, release };
}

function startGateway(upstream: string, dataDir: string, extra: string[] = []): Promise<string> {
  return startGatewayProcess(upstream, dataDir, extra, (child) => cleanups.push(() => child.kill('SIGTERM')));
}

const post = (url: string, body: unknown) =>
  fetch(`${url}/v1/messages?beta=true`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-claude-code-session-id': 'sess-1', 'x-api-key': 'sk-fake' }, body: JSON.stringify(body) });

describe('tokenless gateway', () => {
  it('streams SSE through as it arrives, forwards the body unchanged, and logs normalised usage', async () => {
    const upstream = await fakeUpstream();
    const dataDir = tempDir();
    const gateway = await startGateway(upstream.url, dataDir);
    const response = await post(gateway, captured);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    const first = await reader.read();
    // The upstream has not sent the rest yet: the first event got here on its own, so nothing is buffered.
    expect(new TextDecoder().decode(first.value)).toContain('message_start');
    upstream.release();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toContain('message_stop');
    expect(upstream.bodies[0]?.toString('utf8')).toBe(JSON.stringify(captured));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const log = readFileSync(join(dataDir, 'usage.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ session_id: 'sess-1', model: 'claude-opus-5-5', stream: true, status: 200, usage: { cache_read: 0, cache_write: 9000, raw_input: 12, output: 42 }, schema_saved_bytes: 0 });
  });

  it('with --schema lossless rewrites only the tools, identically on every request', async () => {
    const upstream = await fakeUpstream();
    upstream.release();
    const gateway = await startGateway(upstream.url, tempDir(), ['--schema', 'lossless']);
    for (let i = 0; i < 2; i += 1) await (await post(gateway, captured)).text();
    const [a, b] = upstream.bodies;
    expect(a?.equals(b!)).toBe(true);
    const forwarded = JSON.parse(a!.toString('utf8')) as Record<string, unknown>;
    expect(forwarded['messages']).toEqual(captured['messages']);
    expect(forwarded['system']).toEqual(captured['system']);
    expect(a!.length).toBeLessThan(Buffer.byteLength(JSON.stringify(captured)));
    (forwarded['tools'] as Array<Record<string, unknown>>).forEach((tool, index) => expect(tool['description']).toBe((captured['tools'] as Array<Record<string, unknown>>)[index]?.['description']));
  });

  it('answers an unreachable upstream with an Anthropic-shaped 502', async () => {
    const gateway = await startGateway('http://127.0.0.1:9', tempDir());
    const response = await post(gateway, { model: 'm', messages: [] });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'api_error' } });
  });

  it('serves /metrics like tokenless serve (same stats.db names) plus its cache reads and writes, loopback only, never forwarded', async () => {
    const upstream = await fakeUpstream();
    upstream.release();
    const dataDir = tempDir();
    const recorder = new StatsRecorder(dataDir, () => Date.now());
    recorder.tryRecord([{ lifecycle: 'post_tool', operations: ['json_compact'], agentId: 'claude-code', sessionId: 'sess-1', toolUseId: 't1', toolName: 'Bash', origin: 'command_output', contentType: 'json', mode: 'active', recoverability: 'lossless', before: '{ "a": 1 }', after: '{"a":1}', beforeTokens: 120, afterTokens: 30, tokenMethod: 'estimated', stashKeys: [], stashWrites: 0 }]);
    recorder.close();
    const gateway = await startGateway(upstream.url, dataDir);
    await (await post(gateway, captured)).text();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const page = await (await fetch(`${gateway}/metrics`)).text();
    expect(page).toContain('tokenless_tokens_before_total{harness="claude-code",lifecycle="post_tool",session_id="sess-1"} 120\n');
    expect(page).toContain('tokenless_views_total{harness="claude-code",lifecycle="post_tool",session_id="sess-1",view_kind="json"} 1\n');
    expect(page).toContain('tokenless_gateway_requests_total{session_id="sess-1"} 1\n');
    expect(page).toContain('tokenless_gateway_cache_write_total{session_id="sess-1"} 9000\n');
    expect(page).toContain('tokenless_gateway_cache_read_total{session_id="sess-1"} 0\n');
    expect(upstream.bodies).toHaveLength(1);
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get(`${gateway}/metrics`, { headers: { host: 'metrics.example.com' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });
    expect(status).toBe(421);
  });

  it('answers SessionEnd at /tokenless/session-end itself: 204 for a session id, 400 or 405 otherwise, never forwarded', async () => {
    const upstream = await fakeUpstream();
    upstream.release();
    const gateway = await startGateway(upstream.url, tempDir(), ['--keep-warm']);
    const end = (init: RequestInit) => fetch(`${gateway}/tokenless/session-end`, init).then(async (r) => ({ status: r.status, body: await r.text() }));
    expect(await end({ method: 'POST', body: '{"session_id":"sess-1"}' })).toEqual({ status: 204, body: '' });
    expect((await end({ method: 'POST', body: '{"session":1}' })).status).toBe(400);
    expect((await end({ method: 'POST', body: 'x'.repeat(10_000) })).status).toBe(400);
    expect((await end({ method: 'GET' })).status).toBe(405);
    expect(upstream.bodies).toEqual([]);
  });
});
