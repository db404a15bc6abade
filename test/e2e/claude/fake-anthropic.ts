/**
 * A scripted fake of the Anthropic Messages API, enough to drive the real Claude Code client headlessly and offline.
 * It runs inside the test process, binds 127.0.0.1 only, answers each main-conversation request with the scripted
 * turn at index = number of assistant messages already in the request (so a retried request gets the same answer),
 * and keeps every request body: the body is exactly what the model would have seen.
 * `GET /files/<name>` serves the given files: the "remote" JSON a session fetches with curl.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PromptCache } from './fake-prompt-cache.ts';

export interface ToolCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/** One assistant reply: optional text and any number of tool calls. */
export interface Turn {
  readonly text?: string;
  readonly tools?: readonly ToolCall[];
}

export interface FakeRequest {
  readonly method: string;
  readonly url: string;
  readonly body: MessagesBody | null;
  readonly bytes: number;
}

export interface MessagesBody {
  readonly model?: string;
  readonly messages: readonly { role: string; content: unknown }[];
  readonly tools?: readonly { name: string }[];
  readonly system?: unknown;
}

export interface FakeAnthropic {
  readonly url: string;
  readonly requests: FakeRequest[];
  close(): Promise<void>;
}

/** `turns(body)` may compute a reply from what the model saw so far (e.g. retrieve a marker it was shown). */
export type Script = readonly (Turn | ((body: MessagesBody) => Turn))[];

/** `cache`: usage reports prompt-cache reads and writes as the API would (./fake-prompt-cache.ts); absent, none. */
export async function startFakeAnthropic(script: Script, files: Readonly<Record<string, string>> = {}, cache?: PromptCache): Promise<FakeAnthropic> {
  const requests: FakeRequest[] = [];
  let ids = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = parseBody(raw);
      requests.push({ method: req.method ?? '', url: req.url ?? '', body, bytes: raw.length });
      route(req, res, body, script, files, () => `toolu_fake${String(++ids).padStart(18, '0')}`, cache);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function parseBody(raw: string): MessagesBody | null {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && Array.isArray((value as { messages?: unknown }).messages) ? (value as MessagesBody) : null;
  } catch {
    return null;
  }
}

function route(req: IncomingMessage, res: ServerResponse, body: MessagesBody | null, script: Script, files: Readonly<Record<string, string>>, nextId: () => string, cache: PromptCache | undefined): void {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (req.method === 'GET' && path.startsWith('/files/')) {
    const file = files[decodeURIComponent(path.slice('/files/'.length))];
    res.writeHead(file === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(file ?? '{"error":"not found"}');
    return;
  }
  if (req.method === 'POST' && path === '/v1/messages' && body !== null) {
    answer(res, body, pickTurn(body, script), nextId, cache);
    return;
  }
  if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
    json(res, 200, { input_tokens: Math.ceil(JSON.stringify(body ?? {}).length / 4) });
    return;
  }
  // Connectivity probes (HEAD /, /api/hello) and anything else: a harmless empty answer.
  json(res, path === '/' || path === '/api/hello' ? 200 : 404, {});
}

/** Requests that offer no Bash tool are side conversations (titles, summaries): they get a plain "OK". */
function pickTurn(body: MessagesBody, script: Script): Turn {
  if (!(body.tools ?? []).some((tool) => tool.name === 'Bash')) return { text: 'OK' };
  const index = body.messages.filter((message) => message.role === 'assistant').length;
  const turn = script[index] ?? { text: 'done' };
  return typeof turn === 'function' ? turn(body) : turn;
}

function answer(res: ServerResponse, body: MessagesBody, turn: Turn, nextId: () => string, cache: PromptCache | undefined): void {
  const content: Record<string, unknown>[] = [];
  if (turn.text !== undefined) content.push({ type: 'text', text: turn.text });
  for (const tool of turn.tools ?? []) content.push({ type: 'tool_use', id: nextId(), name: tool.name, input: tool.input });
  if (content.length === 0) content.push({ type: 'text', text: '' });
  const stopReason = (turn.tools ?? []).length > 0 ? 'tool_use' : 'end_turn';
  const cached = cache?.account(body as unknown as Readonly<Record<string, unknown>>);
  const usage =
    cached === undefined
      ? { input_tokens: Math.ceil(JSON.stringify(body.messages).length / 4), output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }
      : { input_tokens: cached.input, output_tokens: 10, cache_creation_input_tokens: cached.write, cache_read_input_tokens: cached.read };
  if ((body as { stream?: unknown }).stream === false) {
    // Asked not to stream (a keep-warm ping is): the whole message as JSON. Everything else is streamed, as before.
    json(res, 200, { id: `msg_fake_${nextId()}`, type: 'message', role: 'assistant', model: body.model ?? 'claude-fake', content, stop_reason: stopReason, stop_sequence: null, usage });
    return;
  }
  const message = { id: `msg_fake_${nextId()}`, type: 'message', role: 'assistant', model: body.model ?? 'claude-fake', content: [], stop_reason: null, stop_sequence: null, usage };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_fake_${nextId()}` });
  const send = (event: string, data: unknown): boolean => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send('message_start', { type: 'message_start', message });
  content.forEach((block, index) => {
    if (block['type'] === 'text') {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block['text'] } });
    } else {
      send('content_block_start', { type: 'content_block_start', index, content_block: { ...block, input: {} } });
      send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block['input']) } });
    }
    send('content_block_stop', { type: 'content_block_stop', index });
  });
  send('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 10 } });
  send('message_stop', { type: 'message_stop' });
  res.end();
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}
