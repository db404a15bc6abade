/**
 * LangChain.js adapter (`@langchain/core` 1.x). Import it from its own module: the core library and the hook path
 * never load LangChain.
 *
 *   const tokenless = createTokenlessLangChain({ sdk, agentId: 'my-agent', contracts: { search: { origin: 'api_response' } } });
 *   const conversation = tokenless.conversation(threadId);
 *   const tools = conversation.tools([search]);              // works with createAgent, LangGraph's ToolNode, or your loop
 *   const model = await conversation.bindTools(chatModel, tools); // before_model on the schemas the model is sent
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { ToolContracts, type ToolContractInput } from '../contracts.ts';
import { TokenlessError } from '../errors.ts';
import type { TokenlessSdk } from '../sdk.ts';
import { TokenlessSession } from '../session.ts';
import { retrieveTool, wrapTool } from './tools.ts';

export { retrieveTool, wrapTool } from './tools.ts';

export interface TokenlessLangChainOptions {
  readonly sdk: TokenlessSdk;
  readonly agentId: string;
  /** One contract per tool whose output may be compressed or whose command may be rewritten; others pass through. */
  readonly contracts?: Readonly<Record<string, ToolContractInput>>;
}

type BoundModel = ReturnType<NonNullable<BaseChatModel['bindTools']>>;

/** One conversation (a LangGraph thread): its own visible markers and tool views; shares only the SDK. */
export class LangChainConversation {
  readonly session: TokenlessSession;

  constructor(session: TokenlessSession) {
    this.session = session;
  }

  /** The tools with Tokenless in front, plus the retrieve tool (always offered, so the bound tool list never changes). */
  tools(tools: readonly StructuredToolInterface[]): StructuredToolInterface[] {
    const wrapped = tools.filter((tool) => !this.session.isRetrieveTool(tool.name)).map((tool) => wrapTool(this.session, tool));
    return [...wrapped, retrieveTool(this.session)];
  }

  /** Binds the tools to a chat model after before_model compressed their schemas (our retrieve tool is left whole). */
  async bindTools(model: BaseChatModel, tools: readonly StructuredToolInterface[]): Promise<BoundModel> {
    if (model.bindTools === undefined) throw new TokenlessError('invalid_input', `${model.getName()} does not support tool calling`);
    const ours = tools.filter((tool) => this.session.isRetrieveTool(tool.name));
    const theirs = tools.filter((tool) => !this.session.isRetrieveTool(tool.name));
    const result = await this.session.prepareTools(theirs.map((tool) => ({ ...convertToOpenAITool(tool) })));
    return model.bindTools([...result.tools, ...ours.map((tool) => convertToOpenAITool(tool))]);
  }

  get visibleMarkers(): string[] {
    return this.session.visibleMarkers;
  }
}

export interface TokenlessLangChain {
  conversation(sessionId: string): LangChainConversation;
}

/** Validates the tool contracts once; each conversation then gets its own state. */
export function createTokenlessLangChain(options: TokenlessLangChainOptions): TokenlessLangChain {
  const contracts = ToolContracts.from(options.contracts);
  return {
    conversation: (sessionId) => new LangChainConversation(new TokenlessSession({ sdk: options.sdk, agentId: options.agentId, sessionId, contracts })),
  };
}
