/**
 * The mock model of the AI SDK examples (the `ai` package's MockLanguageModelV3): it calls npm_view, search, then the
 * retrieve tool on the marker it was shown, then answers; it counts the tool-result text it was sent.
 */
import type { LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { versionsJson } from './shared.ts';

const USAGE = { inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 10, text: 10, reasoning: undefined } };
const MARKER = /<<tokenless:[0-9]{29}>>|\[tokenless retrieve [0-9]{29}\]/;

export interface ScriptedModel extends MockLanguageModelV3 {
  sentToolResultChars: number;
  retrievedExact: boolean;
}

export function scriptedModel(): ScriptedModel {
  let step = 0;
  const state = { sentToolResultChars: 0, retrievedExact: false };
  const answer = (call: LanguageModelV3CallOptions): LanguageModelV3Content => {
    const results = toolResults(call);
    const current = step++;
    if (current === 0) return { type: 'tool-call', toolCallId: 'c0', toolName: 'npm_view', input: JSON.stringify({ name: 'express' }) };
    if (current === 1) return { type: 'tool-call', toolCallId: 'c1', toolName: 'search', input: JSON.stringify({ pattern: 'handle' }) };
    if (current === 2) {
      state.sentToolResultChars = results.filter((r) => r.name !== 'tokenless_retrieve').reduce((sum, r) => sum + r.text.length, 0);
      const marker = MARKER.exec(results[0]?.text ?? '')?.[0] ?? 'none';
      return { type: 'tool-call', toolCallId: 'c2', toolName: 'tokenless_retrieve', input: JSON.stringify({ marker }) };
    }
    state.retrievedExact = results.find((r) => r.name === 'tokenless_retrieve')?.text === versionsJson('express');
    return { type: 'text', text: 'express has 1200 versions' };
  };
  const finish = (part: LanguageModelV3Content) => ({ unified: part.type === 'text' ? ('stop' as const) : ('tool-calls' as const), raw: undefined });
  const model = new MockLanguageModelV3({
    doGenerate: (call) => {
      const part = answer(call);
      return Promise.resolve({ content: [part], finishReason: finish(part), usage: USAGE, warnings: [] });
    },
    doStream: (call) => {
      const part = answer(call);
      const body: LanguageModelV3StreamPart[] =
        part.type === 'text'
          ? [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: part.text }, { type: 'text-end', id: 't' }]
          : part.type === 'tool-call' ? [part] : [];
      const chunks: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }, ...body, { type: 'finish', finishReason: finish(part), usage: USAGE }];
      return Promise.resolve({ stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) });
    },
  });
  return Object.defineProperties(model, {
    sentToolResultChars: { get: () => state.sentToolResultChars },
    retrievedExact: { get: () => state.retrievedExact },
  }) as ScriptedModel;
}

function toolResults(call: LanguageModelV3CallOptions): { name: string; text: string }[] {
  return call.prompt.flatMap((message) =>
    message.role !== 'tool'
      ? []
      : message.content.flatMap((part) =>
          part.type === 'tool-result' && part.output.type === 'text' ? [{ name: part.toolName, text: part.output.value }] : part.type === 'tool-result' && part.output.type === 'json' ? [{ name: part.toolName, text: JSON.stringify(part.output.value) }] : [],
        ),
  );
}
