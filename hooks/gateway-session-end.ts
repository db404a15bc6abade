/**
 * SessionEnd for the gateway's keep-warm (issue 27): when the agent talks to a gateway on this machine
 * (ANTHROPIC_BASE_URL on loopback), tell it the session is over, so no ping is sent after it. Only a loopback address
 * is ever contacted, only the session id is sent, and the hook waits at most SESSION_END_NOTIFY_MS: a gateway that is
 * not running, or a base URL that is not ours, costs the hook nothing more.
 */
import http from 'node:http';
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

export function tellGatewaySessionEnded(baseUrl: string | undefined, sessionId: unknown): Promise<void> {
  const url = sessionEndUrl(baseUrl);
  if (url === null || typeof sessionId !== 'string' || sessionId === '') return Promise.resolve();
  const body = JSON.stringify({ session_id: sessionId });
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
