import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { sessionEndUrl, tellGatewaySessionEnded } from '../../../hooks/gateway-session-end.ts';

describe("SessionEnd to the gateway's keep-warm", () => {
  it('goes only to a plain-HTTP loopback base URL', () => {
    expect(sessionEndUrl('http://127.0.0.1:8787')?.href).toBe('http://127.0.0.1:8787/tokenless/session-end');
    expect(sessionEndUrl('http://localhost:8787/some/prefix')?.href).toBe('http://localhost:8787/tokenless/session-end');
    for (const base of [undefined, '', 'https://api.anthropic.com', 'http://10.0.0.5:8787', 'https://127.0.0.1:8787', 'http://127.0.0.1.evil.test', 'not a url']) expect(sessionEndUrl(base)).toBeNull();
  });

  it('posts the session id, and returns within its bound when nothing answers', async () => {
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push(`${req.method ?? ''} ${req.url ?? ''} ${body}`);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await tellGatewaySessionEnded(`http://127.0.0.1:${port}`, 'sess-9');
    expect(seen).toEqual(['POST /tokenless/session-end {"session_id":"sess-9"}']);
    await tellGatewaySessionEnded(`http://127.0.0.1:${port}`, 42);
    expect(seen.length).toBe(1);
    // A server that never answers: the hook waits no longer than its bound.
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const started = Date.now();
    await tellGatewaySessionEnded(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, 'sess-9');
    expect(Date.now() - started).toBeLessThan(3_000);
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});
