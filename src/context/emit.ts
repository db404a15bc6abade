/**
 * Wire bodies from the IR: Anthropic Messages (with the planned `cache_control` markers), OpenAI-compatible chat
 * completions (OpenAI, DeepSeek, vLLM, SGLang) and Gemini generateContent. Every emitter follows the layout order,
 * so the stable prefix is byte-identical whenever the IR's prefix is.
 */
import { renderRef, type Block, type ContextIR, type IrMessage } from './ir.ts';
import { slotKey } from './layout.ts';

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json => (typeof value === 'object' && value !== null ? (value as Json) : {});
const textBlock = (content: unknown): Json => (typeof content === 'string' ? { type: 'text', text: content } : { ...asObject(content) });

function systemOrder(ir: ContextIR): Array<{ key: string; text: string }> {
  const text = (block: Block) => {
    if (typeof block.content === 'string') return block.content;
    const inner = asObject(block.content)['text'];
    return typeof inner === 'string' ? inner : '';
  };
  return [
    ...ir.system.filter((b) => b.band === 'PIN').map((b) => ({ key: slotKey.system(b), text: text(b) })),
    ...ir.refPool.map((entry) => ({ key: slotKey.ref(entry.slug), text: renderRef(entry) })),
    ...ir.system.filter((b) => b.band !== 'PIN').map((b) => ({ key: slotKey.system(b), text: text(b) })),
  ];
}

/** Anthropic allows only alternating roles: adjacent messages of one role (e.g. after a fold) are merged. */
function mergedMessages(messages: readonly IrMessage[]): IrMessage[] {
  const out: IrMessage[] = [];
  for (const message of messages) {
    const last = out.at(-1);
    if (last !== undefined && last.role === message.role) out[out.length - 1] = { role: last.role, blocks: [...last.blocks, ...message.blocks] };
    else out.push(message);
  }
  return out;
}

export function emitAnthropic(ir: ContextIR, breakpoints: ReadonlySet<string>, options: { model: string; maxTokens: number; ttl?: '5m' | '1h' }): Json {
  const cacheControl = options.ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
  const mark = (key: string, object: Json): Json => (breakpoints.has(key) ? { ...object, cache_control: cacheControl } : object);
  const body: Json = { model: options.model, max_tokens: options.maxTokens };
  if (ir.tools.length > 0) body['tools'] = ir.tools.map((block) => mark(slotKey.tool(block), { ...asObject(block.content) }));
  const system = systemOrder(ir);
  if (system.length > 0) body['system'] = system.map(({ key, text }) => mark(key, { type: 'text', text }));
  body['messages'] = mergedMessages(ir.messages).map((message) => ({
    role: message.role,
    content: message.blocks.map((block) => mark(slotKey.message(block), textBlock(block.content))),
  }));
  return body;
}

/** OpenAI chat completions: one system message, tool_use as `tool_calls`, tool_result as `tool` messages. */
export function emitOpenAIChat(ir: ContextIR, options: { model: string; maxTokens: number }): Json {
  const messages: Json[] = [];
  const system = systemOrder(ir).map(({ text }) => text).join('\n\n');
  if (system !== '') messages.push({ role: 'system', content: system });
  for (const message of ir.messages) {
    const texts: string[] = [];
    const calls: Json[] = [];
    for (const block of message.blocks) {
      const content = textBlock(block.content);
      if (content['type'] === 'tool_result') messages.push({ role: 'tool', tool_call_id: content['tool_use_id'], content: resultText(content['content']) });
      else if (content['type'] === 'tool_use') calls.push({ id: content['id'], type: 'function', function: { name: content['name'], arguments: JSON.stringify(content['input'] ?? {}) } });
      else if (typeof content['text'] === 'string') texts.push(content['text']);
    }
    if (texts.length > 0 || calls.length > 0) {
      messages.push({ role: message.role, content: texts.length > 0 ? texts.join('\n\n') : null, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
    }
  }
  const body: Json = { model: options.model, max_tokens: options.maxTokens, messages };
  if (ir.tools.length > 0) body['tools'] = ir.tools.map((block) => openAITool(asObject(block.content)));
  return body;
}

/** Gemini generateContent: systemInstruction, then contents with roles user/model. */
export function emitGemini(ir: ContextIR): Json {
  const contents = ir.messages.map((message) => ({
    role: message.role === 'assistant' ? 'model' : 'user',
    parts: message.blocks.map((block) => {
      const content = textBlock(block.content);
      if (content['type'] === 'tool_use') return { functionCall: { name: content['name'], args: content['input'] ?? {} } };
      if (content['type'] === 'tool_result') return { functionResponse: { name: typeof content['tool_use_id'] === 'string' ? content['tool_use_id'] : '', response: { content: resultText(content['content']) } } };
      return { text: typeof content['text'] === 'string' ? content['text'] : JSON.stringify(content) };
    }),
  }));
  const body: Json = { contents };
  const system = systemOrder(ir).map(({ text }) => ({ text }));
  if (system.length > 0) body['systemInstruction'] = { parts: system };
  if (ir.tools.length > 0) {
    body['tools'] = [{ functionDeclarations: ir.tools.map((block) => {
      const fn = asObject(openAITool(asObject(block.content))['function']);
      return { name: fn['name'], description: fn['description'], parameters: fn['parameters'] };
    }) }];
  }
  return body;
}

function openAITool(tool: Json): Json {
  if (tool['type'] === 'function') return tool;
  return { type: 'function', function: { name: tool['name'], description: tool['description'], parameters: tool['input_schema'] } };
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof asObject(part)['text'] === 'string' ? String(asObject(part)['text']) : JSON.stringify(part))).join('\n');
  return JSON.stringify(content ?? '');
}
