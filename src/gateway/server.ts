/**
 * A local proxy for the Anthropic Messages API. Responses are streamed through chunk by chunk as they arrive (SSE
 * stays SSE, nothing is buffered); usage is read from the passing stream and appended to the usage log once the
 * response ends. Every request goes to the configured upstream and nowhere else (./upstream-url.ts). Requests to
 * POST /v1/messages change only as the cache-safe policies say: the session policies of ./policies.ts (stale-result
 * folds, tool tiers), then the lossless tools rewrite of ./rewrite.ts. With keep-warm on (./keep-warm.ts), the
 * gateway also sends pings of its own, to the same upstream, and answers SessionEnd at ./local-paths.ts's path.
 */
import http from 'node:http';
import https from 'node:https';
import * as z from 'zod/mini';
import { isLoopbackHost } from '../server/loopback.ts';
import { parseBody } from './canonical-json.ts';
import { GATEWAY_METRICS_PATH, SESSION_END_PATH } from './local-paths.ts';
import { KeepWarm, preparePing, type KeepWarmOptions, type Ping, type PingResult, type Prepared } from './keep-warm.ts';
import { applyPolicies, type PolicySwitches } from './policies.ts';
import { rewriteRequest, type GatewaySchemaMode } from './rewrite.ts';
import { UsageTap } from './sse.ts';
import { upstreamUrl } from './upstream-url.ts';
import { appendUsage, type UsageRecord } from './usage-log.ts';

export interface GatewayOptions {
  readonly upstream: URL;
  readonly dataDir: string;
  readonly schema: GatewaySchemaMode;
  /** Request bodies over this are refused with 413 (default MAX_REQUEST_BYTES). */
  readonly maxRequestBytes?: number;
  /** Called with each record after it is logged (tests, live dashboards). */
  readonly onRecord?: (record: UsageRecord) => void;
  /** Stale-result folds and tool tiers (./session-policy.ts); absent: both off. */
  readonly policies?: PolicySwitches;
  /** The clock cache expiry is judged by (tests simulate a pause with it); default Date.now. */
  readonly now?: () => number;
  /** The Prometheus text page for GET /metrics (issue 26); absent, /metrics is forwarded upstream like any path. */
  readonly metrics?: () => { readonly contentType: string; readonly body: string };
  /** Keep-warm pings over pauses (./keep-warm.ts); absent: off. */
  readonly keepWarm?: KeepWarmOptions;
}

/** What the SessionEnd hook posts (hooks/gateway-session-end.ts), bounded like every body. */
const SessionEnd = z.object({ session_id: z.string().check(z.minLength(1), z.maxLength(200)) });
const MAX_SESSION_END_BYTES = 4096;
/** A ping that has not answered by then is abandoned (and stops its session's pings). */
const PING_TIMEOUT_MS = 60_000;

/** Hop-by-hop headers (RFC 9110 §7.6.1) are per connection and never forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'content-length']);
const MAX_JSON_CAPTURE = 16 * 1024 * 1024;
/** The Messages API itself refuses requests over 32 MB; a bigger body is refused before it is buffered. */
export const MAX_REQUEST_BYTES = 32 * 1024 * 1024;

export function createGateway(options: GatewayOptions): http.Server {
  const now = options.now ?? Date.now;
  const policies = options.policies === undefined ? null : applyPolicies(options.dataDir, options.policies, now);
  const keepWarm = options.keepWarm === undefined ? null : new KeepWarm(options.keepWarm, (ping) => sendPing(options.upstream, ping), now, (ping, result, sentAt) => logPing(options, ping, result, sentAt));
  const server = http.createServer((req, res) => {
    handle(req, res, options, policies, keepWarm).catch((error: unknown) => fail(res, error));
  });
  server.on('close', () => {
    policies?.close();
    keepWarm?.close();
  });
  return server;
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse, options: GatewayOptions, policies: ReturnType<typeof applyPolicies> | null, keepWarm: KeepWarm | null): Promise<void> {
  const started = Date.now();
  if (!isLoopbackHost(req.headers.host)) return refuse(req, res, 421, 'invalid_request_error', 'tokenless gateway: loopback host only');
  const path = req.url ?? '/';
  const pathname = new URL(path, 'http://x').pathname;
  if (req.method === 'GET' && options.metrics !== undefined && pathname === GATEWAY_METRICS_PATH) {
    const page = options.metrics();
    res.writeHead(200, { 'content-type': page.contentType, 'content-length': Buffer.byteLength(page.body) });
    return void res.end(page.body);
  }
  if (pathname === SESSION_END_PATH) return sessionEnd(req, res, keepWarm);
  const target = upstreamUrl(options.upstream, path);
  if (target === null) return refuse(req, res, 400, 'invalid_request_error', 'tokenless gateway: the request target must be a path (/v1/…); the gateway forwards only to its configured upstream');
  const cap = options.maxRequestBytes ?? MAX_REQUEST_BYTES;
  const original = await readCapped(req, cap);
  if (original === null) return refuse(req, res, 413, 'request_too_large', `tokenless gateway: request body over ${cap} bytes`);
  const isMessages = req.method === 'POST' && pathname === '/v1/messages';
  const sessionId = headerValue(req.headers['x-claude-code-session-id']);
  const policed = isMessages && policies !== null ? policies.apply(original, sessionId) : null;
  const policedBody = policed?.body ?? original;
  const { body, savedBytes } = isMessages ? rewriteRequest(policedBody, options.schema, policed?.parsed) : { body: original, savedBytes: 0 };
  // The client's own request refreshes its cache entry: pings pending for the session stop here. The policies' parse
  // is reused when the schema rewrite left their body as it was.
  const forwardedParse = body === policedBody ? (policed?.parsed ?? null) : null;
  const prepared: Prepared | null = isMessages && keepWarm !== null ? preparePing(forwardedParse ?? parseBody(body)) : null;
  if (prepared !== null) keepWarm?.clientRequest(prepared.key);
  const headers: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
  headers['content-length'] = String(body.length);
  // Asked uncompressed so usage can be read from the stream; the client still gets a valid (plain) response.
  headers['accept-encoding'] = 'identity';
  const upstream = (target.protocol === 'https:' ? https : http).request(target, { method: req.method, headers });
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  upstream.on('error', (error) => fail(res, error));
  upstream.on('response', (up) => {
    const outHeaders: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(up.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) outHeaders[name] = value;
    res.writeHead(up.statusCode ?? 502, outHeaders);
    res.flushHeaders();
    const tap = new UsageTap();
    const isSse = String(up.headers['content-type'] ?? '').includes('text/event-stream');
    const captured: Buffer[] = [];
    let capturedBytes = 0;
    up.on('data', (chunk: Buffer) => {
      if (!res.write(chunk)) {
        up.pause();
        res.once('drain', () => up.resume());
      }
      if (!isMessages) return;
      if (isSse) tap.push(chunk);
      else if (capturedBytes < MAX_JSON_CAPTURE) {
        captured.push(chunk);
        capturedBytes += chunk.length;
      }
    });
    up.on('end', () => {
      res.end();
      if (!isMessages) return;
      if (!isSse) tap.readJson(Buffer.concat(captured).toString('utf8'));
      const record: UsageRecord = {
        ts: new Date().toISOString(),
        engine: 'anthropic',
        path,
        status: up.statusCode ?? 0,
        session_id: sessionId,
        model: tap.model ?? modelOf(original),
        stream: isSse,
        usage: tap.usage,
        request_bytes: original.length,
        forwarded_bytes: body.length,
        schema_saved_bytes: savedBytes,
        ...(policed === null ? {} : { policy: policed.report }),
        duration_ms: Date.now() - started,
      };
      appendUsage(options.dataDir, record);
      options.onRecord?.(record);
      if (prepared !== null) keepWarm?.responded(prepared, sessionId, path, headers, up.statusCode ?? 0, tap.usage);
    });
    up.on('error', () => res.destroy());
  });
  upstream.end(body);
}

/** SessionEnd from the hook: that session's pings stop. Answered whether keep-warm is on or not; never forwarded. */
async function sessionEnd(req: http.IncomingMessage, res: http.ServerResponse, keepWarm: KeepWarm | null): Promise<void> {
  if (req.method !== 'POST') return refuse(req, res, 405, 'invalid_request_error', `tokenless gateway: ${SESSION_END_PATH} takes POST`);
  const raw = await readCapped(req, MAX_SESSION_END_BYTES);
  let parsed: z.infer<typeof SessionEnd> | null = null;
  try {
    const result = SessionEnd.safeParse(JSON.parse(raw?.toString('utf8') ?? ''));
    parsed = result.success ? result.data : null;
  } catch {
    parsed = null;
  }
  if (parsed === null) return refuse(req, res, 400, 'invalid_request_error', `tokenless gateway: ${SESSION_END_PATH} takes {"session_id": "<id>"}`);
  keepWarm?.endSession(parsed.session_id);
  res.writeHead(204);
  res.end();
}

/** One keep-warm ping to the upstream: its status and usage; its answer goes nowhere else. */
function sendPing(upstream: URL, ping: Ping): Promise<PingResult> {
  const target = upstreamUrl(upstream, ping.path);
  if (target === null) return Promise.resolve({ status: 0, usage: null });
  return new Promise((resolve) => {
    const request = (target.protocol === 'https:' ? https : http).request(target, { method: 'POST', headers: { ...ping.headers, 'content-length': String(ping.body.length) }, timeout: PING_TIMEOUT_MS });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', () => resolve({ status: 0, usage: null }));
    request.on('response', (up) => {
      const parts: Buffer[] = [];
      let size = 0;
      up.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_JSON_CAPTURE) parts.push(chunk);
      });
      up.on('end', () => {
        const tap = new UsageTap();
        tap.readJson(Buffer.concat(parts).toString('utf8'));
        resolve({ status: up.statusCode ?? 0, usage: tap.usage });
      });
      up.on('error', () => resolve({ status: 0, usage: null }));
    });
    request.end(ping.body);
  });
}

function logPing(options: GatewayOptions, ping: Ping, result: PingResult, sentAt: number): void {
  const record: UsageRecord = {
    ts: new Date().toISOString(),
    engine: 'anthropic',
    path: ping.path,
    status: result.status,
    session_id: ping.sessionId,
    model: ping.model,
    stream: false,
    usage: result.usage,
    request_bytes: ping.body.length,
    forwarded_bytes: ping.body.length,
    schema_saved_bytes: 0,
    keep_warm: true,
    duration_ms: Math.max(0, (options.now ?? Date.now)() - sentAt),
  };
  appendUsage(options.dataDir, record);
  options.onRecord?.(record);
}

/**
 * The request body, or null as soon as it passes the cap: a declared Content-Length over the cap is refused before
 * a byte is read, a chunked body when it crosses the cap; nothing past the cap is ever held.
 */
function readCapped(req: http.IncomingMessage, cap: number): Promise<Buffer | null> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > cap) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= cap) {
        parts.push(chunk);
        return;
      }
      // Paused, not destroyed: the socket must stay open long enough to carry the 413.
      req.off('data', onData);
      req.pause();
      parts.length = 0;
      resolve(null);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(parts, size)));
    req.on('error', reject);
  });
}

/** Anthropic's error shape, then the connection closes: an unread body is never drained into memory. */
function refuse(req: http.IncomingMessage, res: http.ServerResponse, status: number, type: string, message: string): void {
  const body = JSON.stringify({ type: 'error', error: { type, message } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body, () => req.socket.destroy());
}

function fail(res: http.ServerResponse, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // Anthropic's own error shape, so the client reports it like any API error.
  res.writeHead(502, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: `tokenless gateway: upstream unreachable: ${message}` } }));
}

const headerValue = (value: string | string[] | undefined): string | null => (Array.isArray(value) ? (value[0] ?? null) : (value ?? null));

function modelOf(body: Buffer): string | null {
  const match = /"model"\s*:\s*"([^"]+)"/.exec(body.subarray(0, 4096).toString('utf8'));
  return match?.[1] ?? null;
}
