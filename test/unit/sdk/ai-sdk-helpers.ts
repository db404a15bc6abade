/** Scripted LanguageModelV3 responses for the AI SDK adapter tests: no network, the `ai` package's own mock model. */
import type { LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

export const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** One step of a scripted model: a tool call (input computed from what the model was sent) or final text. */
export type Step = { tool: string; input: (call: LanguageModelV3CallOptions) => unknown } | { text: string };

function content(step: Step, call: LanguageModelV3CallOptions, index: number): LanguageModelV3Content {
  return 'text' in step
    ? { type: 'text', text: step.text }
    : { type: 'tool-call', toolCallId: `call-${index}`, toolName: step.tool, input: JSON.stringify(step.input(call)) };
}

/** A mock model answering step i of the script on its i-th call, through doGenerate or doStream. */
export function scriptedModel(steps: readonly Step[]): MockLanguageModelV3 {
  let generateCalls = 0;
  let streamCalls = 0;
  const stepAt = (index: number): Step => steps[Math.min(index, steps.length - 1)] ?? { text: 'done' };
  return new MockLanguageModelV3({
    doGenerate: (call): Promise<LanguageModelV3GenerateResult> => {
      const index = generateCalls++;
      const step = stepAt(index);
      return Promise.resolve({
        content: [content(step, call, index)],
        finishReason: { unified: 'text' in step ? 'stop' : 'tool-calls', raw: undefined },
        usage: USAGE,
        warnings: [],
      });
    },
    doStream: (call) => {
      const index = streamCalls++;
      const step = stepAt(index);
      const part = content(step, call, index);
      const body: LanguageModelV3StreamPart[] =
        part.type === 'text'
          ? [
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: part.text },
              { type: 'text-end', id: 't' },
            ]
          : [part as LanguageModelV3StreamPart];
      const chunks: LanguageModelV3StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        ...body,
        { type: 'finish', finishReason: { unified: 'text' in step ? 'stop' : 'tool-calls', raw: undefined }, usage: USAGE },
      ];
      return Promise.resolve({ stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) });
    },
  });
}

/** The text of every tool result in a prompt, by tool name, in order. */
export function toolResultsIn(call: LanguageModelV3CallOptions | undefined): { toolName: string; text: string }[] {
  const out: { toolName: string; text: string }[] = [];
  for (const message of call?.prompt ?? []) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const output = part.output;
      const text = output.type === 'text' || output.type === 'error-text' ? output.value : JSON.stringify(output);
      out.push({ toolName: part.toolName, text });
    }
  }
  return out;
}

export const MARKER = /<<tokenless:[0-9]{29}>>/;

/** The first marker in the last tool result a model call was sent. */
export function lastMarker(call: LanguageModelV3CallOptions): string {
  const results = toolResultsIn(call);
  const found = MARKER.exec(results.at(-1)?.text ?? '');
  if (found === null) throw new Error('no marker in the last tool result');
  return found[0];
}
