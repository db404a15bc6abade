/**
 * Reads usage out of an Anthropic Messages SSE stream as it passes by, without holding the stream: bytes are fed
 * in as they arrive, complete events are parsed, partial lines are kept for the next chunk.
 */
import { mergeUsage, normaliseUsage, type NormalisedUsage } from '../context/engines/usage.ts';

export class UsageTap {
  #pending = '';
  #decoder = new TextDecoder();
  usage: NormalisedUsage | null = null;
  model: string | null = null;

  /** Feed one chunk of the response body. */
  push(chunk: Uint8Array): void {
    this.#pending += this.#decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = this.#pending.indexOf('\n')) >= 0) {
      const line = this.#pending.slice(0, end).replace(/\r$/, '');
      this.#pending = this.#pending.slice(end + 1);
      if (line.startsWith('data:')) this.#event(line.slice(5).trim());
    }
  }

  /** A non-streaming JSON response: its `usage` is read once at the end. */
  readJson(text: string): void {
    try {
      const body = JSON.parse(text) as { usage?: unknown; model?: unknown };
      if (body.usage !== undefined) this.usage = normaliseUsage('anthropic', body.usage);
      if (typeof body.model === 'string') this.model = body.model;
    } catch {
      // Not JSON (an error page): no usage to record.
    }
  }

  #event(data: string): void {
    let event: { type?: unknown; message?: { usage?: unknown; model?: unknown }; usage?: Record<string, unknown> };
    try {
      event = JSON.parse(data) as typeof event;
    } catch {
      return;
    }
    if (event.type === 'message_start' && event.message !== undefined) {
      this.usage = normaliseUsage('anthropic', event.message.usage);
      if (typeof event.message.model === 'string') this.model = event.message.model;
    } else if (event.type === 'message_delta' && event.usage !== undefined) {
      // The delta carries the running output count (and, on newer APIs, final input figures): keep what it states.
      const stated = normaliseUsage('anthropic', event.usage);
      const has = (key: string) => typeof event.usage?.[key] === 'number';
      this.usage = mergeUsage(this.usage ?? stated, {
        ...(has('output_tokens') ? { output: stated.output } : {}),
        ...(has('input_tokens') ? { raw_input: stated.raw_input } : {}),
        ...(has('cache_read_input_tokens') ? { cache_read: stated.cache_read } : {}),
        ...(has('cache_creation_input_tokens') ? { cache_write: stated.cache_write } : {}),
      });
    }
  }
}
