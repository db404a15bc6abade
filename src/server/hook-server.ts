/**
 * The HTTP hook server behind `tokenless serve`: a harness with HTTP hooks (Claude Code) POSTs the same JSON a command
 * hook reads on stdin to `{"type":"http","url":…}` hooks and reads the response body like a command hook's stdout
 * (FINDINGS.md section 5). The URL names the harness (`/tokenless/<harness>/<lifecycle>`), whose entry in the
 * registry answers in its dialect. One long-lived process means no process start and warm SQLite handles per tool
 * call. Loopback only, and every hook call must carry the token header. Anything wrong answers `{}`-or-an-error
 * status, which Claude Code treats as "no change": the tool always runs.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadHarness } from '../harness/load.ts';
import { HARNESSES } from '../harness/registry.ts';
import type { HarnessAnswer } from '../harness/types.ts';
import type { Lifecycle } from '../protocol/schemas.ts';
import { nestsDeeperThan, tooDeep } from '../protocol/depth.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { isLoopbackHost } from './loopback.ts';
import { HOOK_ENDPOINTS, TOKEN_HEADER, httpHookPath } from './http-hooks.ts';
import { tokenMatches } from './token.ts';

export const HEALTH_PATH = '/tokenless/health';
/** Prometheus scrapes here (issue 26); loopback only like every path, and without the hook token: it holds no output. */
export const METRICS_PATH = '/metrics';
/** Claude Code already cuts Bash output at 30,000 characters; Grep content can be larger, but not this large. */
const BODY_CAP_BYTES = 16 * 1024 * 1024;

export interface HookServerOptions {
  readonly port: number;
  readonly token: string;
  readonly runtime: Runtime;
  readonly wrapperCommand: string;
  readonly version: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** One line per failed call, for the operator's terminal. */
  readonly log?: (line: string) => void;
  /** The Prometheus text page for GET /metrics; absent, the path is a 404 like any unknown one. */
  readonly metrics?: () => { readonly contentType: string; readonly body: string };
}

export interface HookServer {
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

export async function startHookServer(options: HookServerOptions): Promise<HookServer> {
  const server: Server = createServer((req, res) => {
    handle(req, res, options).catch((error: unknown) => {
      options.log?.(`hook call failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) send(res, 500, { error: 'internal error' });
    });
  });
  // Keep-alive lets Claude Code reuse one connection across tool calls.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, options: HookServerOptions): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  if (!isLoopbackHost(req.headers.host)) return send(res, 421, { error: 'loopback host only' });
  if (req.method === 'GET' && path === HEALTH_PATH) return send(res, 200, { ok: true, version: options.version });
  if (req.method === 'GET' && path === METRICS_PATH && options.metrics !== undefined) {
    const page = options.metrics();
    res.writeHead(200, { 'content-type': page.contentType, 'content-length': Buffer.byteLength(page.body) });
    return void res.end(page.body);
  }
  const answer = req.method === 'POST' ? await httpHook(path, options) : null;
  if (answer === null) return send(res, 404, { error: 'no such hook' });
  const given = req.headers[TOKEN_HEADER.toLowerCase()];
  if (!tokenMatches(typeof given === 'string' ? given : undefined, options.token)) {
    req.resume();
    return send(res, 401, { error: 'missing or wrong token' });
  }
  const body = await readBody(req);
  if (body === null) return send(res, 413, { error: 'body too large' });
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return send(res, 400, { error: 'body is not JSON' });
  }
  if (nestsDeeperThan(raw)) return send(res, 400, { error: tooDeep() });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return send(res, 400, { error: 'body must be one JSON object' });
  const outcome = await answer(raw as Record<string, unknown>);
  if ('error' in outcome) {
    options.log?.(outcome.error);
    return send(res, 400, { error: outcome.error });
  }
  send(res, 200, outcome.answer ?? {});
}

/** How the harness a hook URL names answers it; null when no harness with HTTP hooks serves that URL. */
async function httpHook(path: string, options: HookServerOptions): Promise<((event: Record<string, unknown>) => Promise<HarnessAnswer>) | null> {
  for (const entry of HARNESSES) {
    const prefix = httpHookPath(entry.name);
    const endpoint = path.startsWith(prefix) ? path.slice(prefix.length) : '';
    if (!(HOOK_ENDPOINTS as readonly string[]).includes(endpoint)) continue;
    const harness = await loadHarness(entry);
    // The harness has no HTTP hooks (`syt init --http` refuses it).
    if (!harness.httpHooks) return null;
    // The server's CLAUDE_PROJECT_DIR is whatever shell started it, not the session's: the event names the project.
    const { CLAUDE_PROJECT_DIR: _own, ...env } = options.env;
    if (endpoint !== 'session') return (event) => harness.answer(endpoint as Lifecycle, event, options.runtime, { wrapperCommand: options.wrapperCommand, env });
    const { answerSession } = harness;
    return answerSession === null ? null : (event) => answerSession(event, options.runtime.config.dataDir);
  }
  return null;
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= BODY_CAP_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > BODY_CAP_BYTES ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
