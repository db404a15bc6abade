/**
 * The HTTP hook server behind `tokenless serve`: Claude Code POSTs the same JSON a command hook reads on stdin to
 * `{"type":"http","url":…}` hooks and reads the response body like a command hook's stdout (FINDINGS.md section 5).
 * One long-lived process means no process start and warm SQLite handles per tool call. Loopback only, and every hook
 * call must carry the token header. Anything wrong answers `{}`-or-an-error status, which Claude Code treats as
 * "no change": the tool always runs.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerSessionEvent, isSessionEvent } from '../adapters/claude-code/session.ts';
import { answerClaudeCodeEvent } from '../adapters/claude-code/answer.ts';
import { HTTP_HOOK_PATH, TOKEN_HEADER } from '../adapters/claude-code/install.ts';
import { nestsDeeperThan, tooDeep } from '../protocol/depth.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { isLoopbackHost } from './loopback.ts';
import { tokenMatches } from './token.ts';

export const HEALTH_PATH = '/tokenless/health';
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
  const lifecycle = path.startsWith(HTTP_HOOK_PATH) ? path.slice(HTTP_HOOK_PATH.length) : '';
  if (req.method !== 'POST' || !['pre_tool', 'post_tool', 'session'].includes(lifecycle)) return send(res, 404, { error: 'no such hook' });
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
  const event = typeof raw === 'object' && raw !== null ? (raw as { hook_event_name?: unknown }).hook_event_name : undefined;
  if (lifecycle === 'session') {
    if (!isSessionEvent(event)) return send(res, 400, { error: 'not a session event' });
    return send(res, 200, answerSessionEvent(raw, options.runtime.config.dataDir).answer ?? {});
  }
  const expected = lifecycle === 'pre_tool' ? 'PreToolUse' : 'PostToolUse';
  if (event !== expected) return send(res, 400, { error: `not a ${expected} event` });
  const outcome = await answerClaudeCodeEvent(raw, options.runtime, { wrapperCommand: options.wrapperCommand, env: options.env });
  if ('error' in outcome) {
    options.log?.(outcome.error);
    return send(res, 400, { error: outcome.error });
  }
  send(res, 200, outcome.answer ?? {});
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
