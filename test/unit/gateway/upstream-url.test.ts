/**
 * Issue 30, item 16: the gateway only ever talks to its configured upstream. A request target naming another host
 * (`//host:port/x`, absolute-form `http://host/x`, `/\host/x`) is refused with 400 before anything is forwarded,
 * so the client's headers (its `x-api-key`) never reach that host.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createGateway } from '../../../src/gateway/server.ts';
import { upstreamUrl } from '../../../src/gateway/upstream-url.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const tempDir = useTempDirs();

describe('upstreamUrl', () => {
  const base = new URL('https://api.example.com/anthropic/');

  it('keeps the upstream origin and base path, and takes only the path and query of the target', () => {
    expect(upstreamUrl(base, '/v1/messages?beta=true')?.href).toBe('https://api.example.com/anthropic/v1/messages?beta=true');
    expect(upstreamUrl(new URL('http://127.0.0.1:9'), '/v1/messages')?.href).toBe('http://127.0.0.1:9/v1/messages');
    // Dot segments are resolved inside the target before the base path is put in front.
    expect(upstreamUrl(base, '/../../etc/x')?.href).toBe('https://api.example.com/anthropic/etc/x');
    expect(upstreamUrl(base, '/%2e%2e/x')?.href).toBe('https://api.example.com/anthropic/x');
  });

  it.each(['//evil.example:8080/x', 'http://evil.example/x', 'https://evil.example/v1/messages', 'evil.example:443', '*', '/\\evil.example/x', '/\\\\evil.example/x', '', 'v1/messages', '/v1/messages#frag', '/a b'])(
    'refuses the target %j',
    (target) => {
      expect(upstreamUrl(base, target)).toBeNull();
    },
  );
});

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

/** A server that records the requests it gets (path and x-api-key) and answers 200 {}. */
async function recorder(): Promise<{ port: number; seen: string[] }> {
  const seen: string[] = [];
  const port = await listen(http.createServer((req, res) => {
    seen.push(`${req.url ?? ''} ${String(req.headers['x-api-key'])}`);
    req.resume();
    req.on('end', () => res.end('{}'));
  }));
  return { port, seen };
}

/** One raw HTTP/1.1 request (so the request target is exactly what is written); resolves with the status code. */
function rawRequest(port: number, requestLine: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    socket.on('data', (chunk: Buffer) => (reply += chunk.toString('latin1')));
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1] ?? 0)));
    socket.on('error', reject);
    socket.write(`${requestLine}\r\nHost: 127.0.0.1:${port}\r\nx-api-key: sk-secret\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}`);
  });
}

describe('gateway request targets', () => {
  it('answers 400 to a target naming another host and contacts neither it nor the upstream', async () => {
    const upstream = await recorder();
    const other = await recorder();
    const port = await listen(createGateway({ upstream: new URL(`http://127.0.0.1:${upstream.port}`), dataDir: tempDir(), schema: 'off' }));
    for (const line of [`POST //127.0.0.1:${other.port}/x HTTP/1.1`, `POST http://127.0.0.1:${other.port}/x HTTP/1.1`, `GET /\\127.0.0.1:${other.port}/x HTTP/1.1`]) {
      expect(await rawRequest(port, line), line).toBe(400);
    }
    expect(other.seen).toEqual([]);
    expect(upstream.seen).toEqual([]);
    // An origin-form target still goes to the upstream, headers and all.
    expect(await rawRequest(port, 'POST /v1/other?q=1 HTTP/1.1')).toBe(200);
    expect(upstream.seen).toEqual(['/v1/other?q=1 sk-secret']);
  });
});
