/**
 * SessionEnd for the gateway's keep-warm (issue 27): when the agent talks to a keep-warm gateway of ours on this
 * machine (ANTHROPIC_BASE_URL on loopback, at a port such a gateway registered in the data dir), tell it the session
 * is over, so no ping is sent after it. No other address or proxy is ever contacted, only the session id is sent, and
 * the hook waits at most SESSION_END_NOTIFY_MS.
 */
import { keepWarmOn } from '../src/gateway/keep-warm-registry.ts';
import { builtin } from '../src/store/builtin.ts';
import { isLoopbackHost } from '../src/server/loopback.ts';
import { SESSION_END_PATH } from '../src/gateway/local-paths.ts';

export const SESSION_END_NOTIFY_MS = 500;

/** Where to say so, or null when the base URL is not a plain-HTTP loopback address. */
export function sessionEndUrl(baseUrl: string | undefined): URL | null {
  if (baseUrl === undefined || baseUrl === '') return null;
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    return null;
  }
  if (base.protocol !== 'http:' || !isLoopbackHost(base.host)) return null;
  return new URL(SESSION_END_PATH, base.origin);
}

export function tellGatewaySessionEnded(dataDir: string, baseUrl: string | undefined, sessionId: unknown): Promise<void> {
  const url = sessionEndUrl(baseUrl);
  if (url === null || typeof sessionId !== 'string' || sessionId === '' || !keepWarmOn(dataDir, url.port || '80')) return Promise.resolve();
  const body = JSON.stringify({ session_id: sessionId });
  // Loaded only now: a SessionEnd with no keep-warm gateway to tell never pays for node:http.
  const http = builtin('node:http');
  return new Promise((resolve) => {
    const request = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }, timeout: SESSION_END_NOTIFY_MS });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve());
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve());
      response.on('error', () => resolve());
    });
    request.on('close', () => resolve());
    request.end(body);
  });
}
