/**
 * The fake OpenAI-compatible model the real-client tests for Pi and OpenCode share (both speak streaming
 * `/v1/chat/completions`): each turn is a `bash` tool call while `next` (given the tool results the model was sent so
 * far, exactly as sent) names a command, else the text "done". A request without tools (OpenCode's title request)
 * is answered "done" and not recorded.
 */
import { parseBodyWith, startRecordingServer } from './scripted-server.ts';

interface ChatBody {
  readonly messages: readonly { readonly role: string; readonly content?: unknown }[];
  readonly tools?: unknown;
}

export interface FakeChatModel {
  readonly url: string;
  /** Per recorded request, the tool results in its messages. */
  readonly toolResults: string[][];
  close(): Promise<void>;
}

/** `extraArgs` join `command` in each call's arguments (OpenCode's bash tool requires a `description`). */
export async function fakeChatModel(next: (toolResults: string[]) => string | null, extraArgs: Record<string, string> = {}): Promise<FakeChatModel> {
  const seen: string[][] = [];
  const server = await startRecordingServer(
    (raw) => parseBodyWith<ChatBody>(raw, 'messages'),
    (req, res, body) => {
      if (!(req.url ?? '').endsWith('/chat/completions') || body === null) {
        res.writeHead(404).end('{}');
        return;
      }
      const results = body.messages.filter((message) => message.role === 'tool').map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)));
      const withTools = body.tools !== undefined;
      if (withTools) seen.push(results);
      const command = withTools ? next(results) : null;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object, finish: string | null): void => {
        res.write(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
      };
      if (command === null) {
        chunk({ role: 'assistant', content: 'done' }, null);
        chunk({}, 'stop');
      } else {
        chunk({ role: 'assistant', tool_calls: [{ index: 0, id: `call_${results.length}`, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command, ...extraArgs }) } }] }, null);
        chunk({}, 'tool_calls');
      }
      res.end('data: [DONE]\n\n');
    },
  );
  return { url: `http://127.0.0.1:${server.port}/v1`, toolResults: seen, close: server.close };
}
