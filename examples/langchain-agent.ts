/**
 * A LangChain.js tool-calling loop against a scripted chat model: tools wrapped by the adapter return a compressed
 * ToolMessage (the original kept as its artifact), the model retrieves the original by marker. Offline.
 */
import { BaseChatModel, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { tool } from '@langchain/core/tools';
import * as z from 'zod/mini';
import { createTokenlessLangChain } from '../src/sdk/langchain/index.ts';
import { TokenlessSdk } from '../src/index.ts';
import { print, printSavings, tempDataDir, versionsJson } from './shared.ts';

const MARKER = /<<tokenless:[0-9]{29}>>/;

/** Calls npm_view, then retrieve on the marker it was shown, then answers. */
class ScriptedChatModel extends BaseChatModel {
  bound: BindToolsInput[] = [];
  #step = 0;

  constructor() {
    super({});
  }

  override _llmType(): string {
    return 'scripted';
  }

  override bindTools(tools: BindToolsInput[]): this {
    this.bound = tools;
    return this;
  }

  override _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const step = this.#step++;
    const last = messages.at(-1);
    const seen = last instanceof ToolMessage && typeof last.content === 'string' ? last.content : '';
    const message =
      step === 0
        ? new AIMessage({ content: '', tool_calls: [{ id: 'c0', name: 'npm_view', args: { name: 'express' }, type: 'tool_call' }] })
        : step === 1
          ? new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'tokenless_retrieve', args: { marker: MARKER.exec(seen)?.[0] ?? 'none' }, type: 'tool_call' }] })
          : new AIMessage(seen === versionsJson('express') ? 'retrieved the exact original' : 'retrieve did not return the original');
    return Promise.resolve({ generations: [{ message, text: '' }] });
  }
}

const data = tempDataDir();
const sdk = new TokenlessSdk({ dataDir: data.dir });
try {
  const conversation = createTokenlessLangChain({ sdk, agentId: 'example-langchain', contracts: { npm_view: { origin: 'api_response' } } }).conversation('thread-1');
  const npmView = tool(({ name }) => Promise.resolve(versionsJson(name)), { name: 'npm_view', description: 'Versions of an npm package', schema: z.object({ name: z.string() }) });
  const tools = conversation.tools([npmView]);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const model = await conversation.bindTools(new ScriptedChatModel(), tools);

  const messages: BaseMessage[] = [new HumanMessage('Which express versions exist?')];
  for (let turn = 0; turn < 5; turn++) {
    const answer = await model.invoke(messages);
    messages.push(answer);
    if (answer.tool_calls === undefined || answer.tool_calls.length === 0) break;
    for (const call of answer.tool_calls) {
      const reply: unknown = await byName.get(call.name)?.invoke(call);
      if (reply instanceof ToolMessage) {
        messages.push(reply);
        print(`tool ${call.name}: the model sees ${reply.text.length} characters${reply.artifact !== undefined ? `, the host keeps ${String(reply.artifact).length} in the artifact` : ''}`);
      }
    }
  }
  print(`model: ${messages.at(-1)?.text ?? ''}`);
  printSavings('savings', sdk);
} finally {
  sdk.close();
  data.remove();
}
