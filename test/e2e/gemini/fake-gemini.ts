/**
 * A scripted fake of the Gemini API (`POST /v1beta/models/<model>:streamGenerateContent?alt=sse`), enough to drive
 * the real Gemini CLI headlessly and offline. Binds 127.0.0.1 only; answers each conversation request with the turn
 * at index = number of `model` contents already in the request (a retried request gets the same answer), and keeps
 * every request body: the body is exactly what the model would have seen. Any other generateContent call (helpers
 * that expect JSON) gets an empty JSON object as text.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseBodyWith, startRecordingServer, turnAt } from '../../helpers/scripted-server.ts';

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
  const server = await startRecordingServer((raw) => parseBodyWith<GenerateBody>(raw, 'contents'), (req, res, body) => route(req, res, body, script));
  return { url: `http://127.0.0.1:${server.port}`, requests: server.requests, close: server.close };
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
    const turn = turnAt(script, index, body, { text: 'done' });
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
