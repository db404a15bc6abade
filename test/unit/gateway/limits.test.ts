/**
 * Issue 15, item 11: the gateway serves only a loopback Host (like `tokenless serve`) and refuses a request body over
 * its cap with 413 before buffering it, whether the size is declared (Content-Length) or only seen (chunked).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createGateway, MAX_REQUEST_BYTES } from '../../../src/gateway/server.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const tempDir = useTempDirs();
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(resolve);
  })));
});

async function listen(server: http.Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A fake upstream that counts the requests it gets and answers 200 {}. */
async function upstream(): Promise<{ url: URL; calls: () => number }> {
  let calls = 0;
  const port = await listen(http.createServer((req, res) => {
    calls += 1;
    req.resume();
    req.on('end', () => res.end('{}'));
  }));
  return { url: new URL(`http://127.0.0.1:${port}`), calls: () => calls };
}

interface Sent {
  readonly status: number;
  readonly body: string;
}

/** POSTs to the gateway; `body` is written in pieces (chunked) unless contentLength is given. */
function send(port: number, options: { host?: string; pieces?: Buffer[]; contentLength?: number }): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { host: options.host ?? `127.0.0.1:${port}`, 'content-type': 'application/json' };
    if (options.contentLength !== undefined) headers['content-length'] = options.contentLength;
    const req = http.request({ host: '127.0.0.1', port, path: '/v1/messages', method: 'POST', headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    // The gateway may close the connection while we are still writing: only the response matters.
    req.on('error', (error) => (error.message.includes('EPIPE') || error.message.includes('ECONNRESET') ? undefined : reject(error)));
    for (const piece of options.pieces ?? []) req.write(piece);
    if (options.contentLength === undefined) req.end();
  });
}

describe('gateway limits', () => {
  it('refuses a non-loopback Host with 421 and forwards nothing', async () => {
    const up = await upstream();
    const port = await listen(createGateway({ upstream: up.url, dataDir: tempDir(), schema: 'off' }));
    const refused = await send(port, { host: 'attacker.example:8787', pieces: [Buffer.from('{}')] });
    expect(refused.status).toBe(421);
    expect(JSON.parse(refused.body)).toMatchObject({ type: 'error', error: { message: 'tokenless gateway: loopback host only' } });
    expect(up.calls()).toBe(0);
    expect((await send(port, { host: `localhost:${port}`, pieces: [Buffer.from('{}')] })).status).toBe(200);
    expect(up.calls()).toBe(1);
  });

  it('refuses a declared Content-Length over the cap with 413 before reading the body', async () => {
    const up = await upstream();
    const port = await listen(createGateway({ upstream: up.url, dataDir: tempDir(), schema: 'off' }));
    // 300 MB announced, 1 KB sent: the answer comes without waiting for (or holding) the rest.
    const refused = await send(port, { contentLength: 300 * 1024 * 1024, pieces: [Buffer.alloc(1024, 'x')] });
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body)).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
    expect(up.calls()).toBe(0);
    expect(MAX_REQUEST_BYTES).toBe(32 * 1024 * 1024);
  });

  it('refuses a chunked body when it crosses the cap, and forwards one at the cap', async () => {
    const up = await upstream();
    const cap = 64 * 1024;
    const port = await listen(createGateway({ upstream: up.url, dataDir: tempDir(), schema: 'off', maxRequestBytes: cap }));
    const pieces = Array.from({ length: 32 }, () => Buffer.alloc(4096, 'x'));
    expect((await send(port, { pieces: [...pieces, Buffer.from('x')] })).status).toBe(413);
    expect(up.calls()).toBe(0);
    expect((await send(port, { pieces: pieces.slice(0, 16) })).status).toBe(200);
    expect(up.calls()).toBe(1);
  });
});
