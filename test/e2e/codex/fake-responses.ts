/**
 * A scripted fake of the OpenAI Responses API (`POST /v1/responses`, streamed as server-sent events), enough to drive
 * the real Codex CLI (`codex exec`, a custom model provider with wire_api "responses") offline. Binds 127.0.0.1
 * only; answers each request with the turn at index = number of function calls already in its input (a retried
 * request gets the same answer), and keeps every request body: the body is exactly what the model would have seen.
 */
import { parseBodyWith, startRecordingServer, turnAt } from '../../helpers/scripted-server.ts';

export interface InputItem {
  readonly type?: string;
  readonly name?: string;
  readonly arguments?: string;
  readonly call_id?: string;
  readonly output?: unknown;
}

export interface ResponsesBody {
  readonly input: readonly InputItem[];
  readonly tools?: readonly { readonly name?: string }[];
}

export interface Turn {
  readonly text?: string;
  /** A call of Codex's shell tool `exec_command` with this command line. */
  readonly command?: string;
}

export type Script = readonly (Turn | ((body: ResponsesBody) => Turn))[];

export interface FakeResponses {
  /** The provider's base_url (ends in /v1). */
  readonly url: string;
  readonly requests: { readonly url: string; readonly body: ResponsesBody | null }[];
  close(): Promise<void>;
}

export async function startFakeResponses(script: Script): Promise<FakeResponses> {
  const server = await startRecordingServer(
    (raw) => parseBodyWith<ResponsesBody>(raw, 'input'),
    (req, res, body, requests) => {
      if (req.method !== 'POST' || !(req.url ?? '').endsWith('/responses') || body === null) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const index = body.input.filter((item) => item.type === 'function_call').length;
      const turn = turnAt(script, index, body, { text: 'done' });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(events(`resp_${requests.length}`, turn, index));
    },
  );
  return { url: `http://127.0.0.1:${server.port}/v1`, requests: server.requests, close: server.close };
}

function events(id: string, turn: Turn, index: number): string {
  const item =
    turn.command !== undefined
      ? { type: 'function_call', id: `fc_${index}`, call_id: `call_${index}`, name: 'exec_command', arguments: JSON.stringify({ cmd: turn.command }) }
      : { type: 'message', role: 'assistant', id: `msg_${index}`, content: [{ type: 'output_text', text: turn.text ?? 'done', annotations: [] }] };
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
  return [
    { type: 'response.created', response: { id } },
    { type: 'response.output_item.added', output_index: 0, item },
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: { id, usage } },
  ]
    .map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
    .join('');
}

/** The output the model was sent for each shell call whose command starts with `prefix` (Codex's text, with its header). */
export function outputsFor(body: ResponsesBody, prefix: string): string[] {
  const calls = new Map<string, string>();
  for (const item of body.input) {
    if (item.type !== 'function_call' || item.call_id === undefined || item.arguments === undefined) continue;
    const cmd = (JSON.parse(item.arguments) as { cmd?: unknown }).cmd;
    if (typeof cmd === 'string' && cmd.startsWith(prefix)) calls.set(item.call_id, cmd);
  }
  return body.input.filter((item) => item.type === 'function_call_output' && calls.has(item.call_id ?? '')).map((item) => (typeof item.output === 'string' ? item.output : JSON.stringify(item.output)));
}
