import { BaseChatModel, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { createTokenlessLangChain } from '../../../src/sdk/langchain/index.ts';
import { TokenlessSdk } from '../../../src/index.ts';
import { loadCorpusCase } from '../../helpers/fixtures.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const temp = useTempDirs();
const open: TokenlessSdk[] = [];
afterEach(() => {
  for (const sdk of open.splice(0)) sdk.close();
});

const VERSIONS = loadCorpusCase('data-npm-view-versions-json').stdout;
const MARKER = /<<tokenless:[0-9]{29}>>/;
const LONG_DESCRIPTION = `Look up a package in the npm registry. ${'Returns the metadata the registry holds for the package, including every published version, its dist-tags and maintainers. '.repeat(12)}`;

type Step = { tool: string; args: (messages: BaseMessage[]) => Record<string, unknown> } | { text: string };

/** A chat model that follows a script and records what it was sent and which tools were bound: no network. */
class ScriptedChatModel extends BaseChatModel {
  readonly calls: BaseMessage[][] = [];
  bound: BindToolsInput[] = [];
  readonly #script: readonly Step[];

  constructor(script: readonly Step[]) {
    super({});
    this.#script = script;
  }

  override _llmType(): string {
    return 'scripted';
  }

  override bindTools(tools: BindToolsInput[]): this {
    this.bound = tools;
    return this;
  }

  override _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const index = this.calls.push(messages) - 1;
    const step = this.#script[Math.min(index, this.#script.length - 1)] ?? { text: 'done' };
    const message =
      'text' in step
        ? new AIMessage(step.text)
        : new AIMessage({ content: '', tool_calls: [{ id: `call-${index}`, name: step.tool, args: step.args(messages), type: 'tool_call' }] });
    return Promise.resolve({ generations: [{ message, text: typeof message.content === 'string' ? message.content : '' }] });
  }
}

/** The usual agent loop: call the model, run each tool call, feed the ToolMessages back. */
async function runLoop(model: { invoke: (messages: BaseMessage[]) => Promise<AIMessage> }, tools: StructuredToolInterface[], prompt: string): Promise<BaseMessage[]> {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const messages: BaseMessage[] = [new HumanMessage(prompt)];
  for (let step = 0; step < 5; step++) {
    const answer = await model.invoke(messages);
    messages.push(answer);
    if (answer.tool_calls === undefined || answer.tool_calls.length === 0) break;
    for (const call of answer.tool_calls) {
      const target = byName.get(call.name);
      if (target === undefined) throw new Error(`no tool ${call.name}`);
      const reply: unknown = await target.invoke(call);
      if (!(reply instanceof ToolMessage)) throw new Error('expected a ToolMessage');
      messages.push(reply);
    }
  }
  return messages;
}

const lastMarker = (messages: BaseMessage[]): string => {
  const last = messages.filter((m) => m instanceof ToolMessage).at(-1);
  const found = MARKER.exec(typeof last?.content === 'string' ? last.content : '');
  if (found === null) throw new Error('no marker in the last tool message');
  return found[0];
};

const npmView = tool(() => Promise.resolve(VERSIONS), { name: 'npm_view', description: LONG_DESCRIPTION, schema: z.object({ name: z.string() }) });

function setup(contracts = { npm_view: { origin: 'api_response' as const } }) {
  const sdk = new TokenlessSdk({ dataDir: temp() });
  open.push(sdk);
  return createTokenlessLangChain({ sdk, agentId: 'langchain-test', contracts });
}

describe('langchain adapter', () => {
  it('compresses a tool result into the ToolMessage, keeps the original as its artifact, and retrieves it exactly', async () => {
    const conversation = setup().conversation('thread-1');
    const chat = new ScriptedChatModel([
      { tool: 'npm_view', args: () => ({ name: 'express' }) },
      { tool: 'tokenless_retrieve', args: (messages) => ({ marker: lastMarker(messages) }) },
      { text: 'many versions' },
    ]);
    const tools = conversation.tools([npmView]);
    const model = await conversation.bindTools(chat, tools);
    const messages = await runLoop(model, tools, 'versions of express?');

    const [viewed, retrieved] = messages.filter((m): m is ToolMessage => m instanceof ToolMessage);
    expect(viewed?.content).toMatch(MARKER);
    expect(viewed?.text.length).toBeLessThan(VERSIONS.length / 10);
    expect(viewed?.artifact).toBe(VERSIONS);
    expect(retrieved?.content).toBe(VERSIONS);
    expect(messages.at(-1)?.content).toBe('many versions');
    expect(conversation.visibleMarkers.length).toBeGreaterThan(0);
  });

  it('binds compressed schemas, with the retrieve tool left whole', async () => {
    const conversation = setup().conversation('thread-schema');
    const chat = new ScriptedChatModel([{ text: 'hi' }]);
    await conversation.bindTools(chat, conversation.tools([npmView]));
    expect(JSON.stringify(chat.bound)).not.toContain(LONG_DESCRIPTION);
    expect(JSON.stringify(chat.bound)).toContain('tokenless_retrieve');
    expect(chat.bound).toHaveLength(2);
  });

  it('returns a tool without a contract as it is', () => {
    const conversation = setup().conversation('thread-none');
    const other = tool(() => Promise.resolve('x'), { name: 'other', description: 'other', schema: z.object({}) });
    expect(conversation.tools([other])[0]).toBe(other);
  });

  it('refuses to retrieve a marker another thread was shown', async () => {
    const tokenless = setup();
    const a = tokenless.conversation('thread-a');
    const messages = await runLoop(new ScriptedChatModel([{ tool: 'npm_view', args: () => ({ name: 'express' }) }, { text: 'ok' }]), a.tools([npmView]), 'x');
    const stolen = lastMarker(messages);
    const retrieveB = tokenless.conversation('thread-b').tools([]).at(-1);
    await expect(retrieveB?.invoke({ marker: stolen })).rejects.toThrow(/not shown in session thread-b/);
    const retrieveA = a.tools([]).at(-1);
    await expect(retrieveA?.invoke({ marker: stolen })).resolves.toBe(VERSIONS);
  });
});
