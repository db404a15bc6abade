import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { sessionEndUrl, tellGatewaySessionEnded } from '../../../hooks/gateway-session-end.ts';
import { keepWarmOn, registerKeepWarm, unregisterKeepWarm } from '../../../src/gateway/keep-warm-registry.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const tempDir = useTempDirs();

async function listening(handler: http.RequestListener): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

describe("SessionEnd to the gateway's keep-warm", () => {
  it('goes only to a plain-HTTP loopback base URL', () => {
    expect(sessionEndUrl('http://127.0.0.1:8787')?.href).toBe('http://127.0.0.1:8787/tokenless/session-end');
    expect(sessionEndUrl('http://localhost:8787/some/prefix')?.href).toBe('http://localhost:8787/tokenless/session-end');
    for (const base of [undefined, '', 'https://api.anthropic.com', 'http://10.0.0.5:8787', 'https://127.0.0.1:8787', 'http://127.0.0.1.evil.test', 'not a url']) expect(sessionEndUrl(base)).toBeNull();
  });

  it('posts the session id only to a port a running keep-warm gateway registered; returns within its bound', async () => {
    const dataDir = tempDir();
    const seen: string[] = [];
    const { server, port } = await listening((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push(`${req.method ?? ''} ${req.url ?? ''} ${body}`);
        res.writeHead(204).end();
      });
    });
    // Some other local proxy at the base URL: it is never sent our request.
    await tellGatewaySessionEnded(dataDir, `http://127.0.0.1:${port}`, 'sess-9');
    expect(seen).toEqual([]);
    registerKeepWarm(dataDir, port);
    expect(keepWarmOn(dataDir, String(port))).toBe(true);
    await tellGatewaySessionEnded(dataDir, `http://127.0.0.1:${port}`, 'sess-9');
    expect(seen).toEqual(['POST /tokenless/session-end {"session_id":"sess-9"}']);
    await tellGatewaySessionEnded(dataDir, `http://127.0.0.1:${port}`, 42);
    expect(seen.length).toBe(1);
    unregisterKeepWarm(dataDir, port);
    expect(keepWarmOn(dataDir, String(port))).toBe(false);
    // A registered port whose server never answers: the hook waits no longer than its bound.
    const silent = await listening(() => undefined);
    registerKeepWarm(dataDir, silent.port);
    const started = Date.now();
    await tellGatewaySessionEnded(dataDir, `http://127.0.0.1:${silent.port}`, 'sess-9');
    expect(Date.now() - started).toBeLessThan(3_000);
    silent.server.closeAllConnections();
    await new Promise((resolve) => silent.server.close(resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});
