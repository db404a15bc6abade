/**
 * The part every fake model server of the real-client tests shares: a loopback-only HTTP server that keeps each
 * request's parsed body (exactly what the model would have seen) and lets the fake answer it, and the scripted turn
 * for a request. Each fake (Gemini, Codex's Responses API) keeps only its own wire format.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest<B> {
  readonly url: string;
  readonly body: B | null;
}

export interface RecordingServer<B> {
  readonly port: number;
  readonly requests: RecordedRequest<B>[];
  readonly close: () => Promise<void>;
}

export async function startRecordingServer<B>(
  parse: (raw: string) => B | null,
  answer: (req: IncomingMessage, res: ServerResponse, body: B | null, requests: readonly RecordedRequest<B>[]) => void,
): Promise<RecordingServer<B>> {
  const requests: RecordedRequest<B>[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = parse(Buffer.concat(chunks).toString('utf8'));
      requests.push({ url: req.url ?? '', body });
      answer(req, res, body, requests);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { port, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A JSON body whose `field` is an array, else null (not a request of the kind the fake answers). */
export function parseBodyWith<B>(raw: string, field: string): B | null {
  try {
    const value = JSON.parse(raw) as Record<string, unknown> | null;
    return value !== null && Array.isArray(value[field]) ? (value as B) : null;
  } catch {
    return null;
  }
}

/** The script's turn at `index` (the last one repeats; a function turn sees the body). */
export function turnAt<T, B>(script: readonly (T | ((body: B) => T))[], index: number, body: B, fallback: T): T {
  const step = script[Math.min(index, script.length - 1)];
  return typeof step === 'function' ? (step as (body: B) => T)(body) : (step ?? fallback);
}

/** The body of the last request whose URL `isConversation` accepts: it carries every tool result the model was sent. */
export function lastBody<B>(requests: readonly RecordedRequest<B>[], isConversation: (url: string) => boolean): B {
  const body = requests.filter((r) => isConversation(r.url)).at(-1)?.body;
  if (body === null || body === undefined) throw new Error('the fake server received no conversation request');
  return body;
}
