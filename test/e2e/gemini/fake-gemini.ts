/**
 * A scripted fake of the Gemini API (`POST /v1beta/models/<model>:streamGenerateContent?alt=sse`), enough to drive
 * the real Gemini CLI headlessly and offline. Binds 127.0.0.1 only; answers each conversation request with the turn
 * at index = number of `model` contents already in the request (a retried request gets the same answer), and keeps
 * every request body: the body is exactly what the model would have seen. Any other generateContent call (helpers
 * that expect JSON) gets an empty JSON object as text.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Part {
  readonly text?: string;
  readonly functionCall?: { readonly name: string; readonly args: Record<string, unknown> };
  readonly functionResponse?: { readonly name: string; readonly response: Record<string, unknown> };
}

export interface GenerateBody {
  readonly contents: readonly { readonly role: string; readonly parts: readonly Part[] }[];
}

export interface Turn {
  readonly text?: string;
  readonly call?: { readonly name: string; readonly args: Record<string, unknown> };
}

export type Script = readonly (Turn | ((body: GenerateBody) => Turn))[];

export interface FakeGemini {
  readonly url: string;
  readonly requests: { readonly url: string; readonly body: GenerateBody | null }[];
  close(): Promise<void>;
}

export async function startFakeGemini(script: Script): Promise<FakeGemini> {
  const requests: { url: string; body: GenerateBody | null }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = parse(Buffer.concat(chunks).toString('utf8'));
      requests.push({ url: req.url ?? '', body });
      route(req, res, body, script);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function route(req: IncomingMessage, res: ServerResponse, body: GenerateBody | null, script: Script): void {
  const url = req.url ?? '';
  if (req.method !== 'POST' || body === null) {
    res.writeHead(404).end();
    return;
  }
  const usage = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
  if (url.includes(':streamGenerateContent')) {
    const index = body.contents.filter((content) => content.role === 'model').length;
    const step = script[Math.min(index, script.length - 1)];
    const turn = typeof step === 'function' ? step(body) : (step ?? { text: 'done' });
    const parts: Part[] = turn.call !== undefined ? [{ functionCall: turn.call }] : [{ text: turn.text ?? 'done' }];
    const chunk = { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: usage };
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    return;
  }
  if (url.includes(':generateContent')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: '{}' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: usage }));
    return;
  }
  if (url.includes(':countTokens')) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ totalTokens: 10 }));
    return;
  }
  res.writeHead(404).end();
}

function parse(raw: string): GenerateBody | null {
  try {
    const value = JSON.parse(raw) as { contents?: unknown };
    return Array.isArray(value.contents) ? (value as GenerateBody) : null;
  } catch {
    return null;
  }
}

/** The text of every function response the model was sent for a call whose command starts with `prefix`. */
export function responsesFor(body: GenerateBody, prefix: string): string[] {
  const out: string[] = [];
  const contents = body.contents;
  for (let i = 0; i < contents.length; i++) {
    const call = contents[i]?.parts.find((part) => part.functionCall !== undefined)?.functionCall;
    const command = call?.args['command'];
    if (typeof command !== 'string' || !command.startsWith(prefix)) continue;
    const response = contents[i + 1]?.parts.find((part) => part.functionResponse !== undefined)?.functionResponse;
    if (response !== undefined) out.push(JSON.stringify(response.response));
  }
  return out;
}
