/**
 * Vercel AI SDK adapter (`ai` 6.x, LanguageModelV3). Import it from its own module: the core library and the hook
 * path never load `ai`.
 *
 *   const tokenless = createTokenlessAiSdk({ sdk, agentId: 'my-agent', contracts: { search: { origin: 'api_response' } } });
 *   const conversation = tokenless.conversation(sessionId);
 *   await generateText({ model: conversation.wrap(model), tools: conversation.tools({ search }), ... });
 */
import type { LanguageModelV3, LanguageModelV3Middleware } from '@ai-sdk/provider';
import { wrapLanguageModel, type Tool, type ToolSet } from 'ai';
import { ToolContracts, type ToolContractInput } from '../contracts.ts';
import type { TokenlessSdk } from '../sdk.ts';
import { TokenlessSession } from '../session.ts';
import { tokenlessMiddleware } from './middleware.ts';
import { withTokenlessTools } from './tools.ts';

export { tokenlessMiddleware } from './middleware.ts';
export { retrieveTool, withTokenlessTools } from './tools.ts';

export interface TokenlessAiSdkOptions {
  readonly sdk: TokenlessSdk;
  readonly agentId: string;
  /** One contract per tool whose output may be compressed or whose command may be rewritten; others pass through. */
  readonly contracts?: Readonly<Record<string, ToolContractInput>>;
}

/** One conversation: its own session state (visible markers, tool views) and the middleware and tools bound to it. */
export class AiSdkConversation {
  readonly session: TokenlessSession;
  readonly middleware: LanguageModelV3Middleware;

  constructor(session: TokenlessSession) {
    this.session = session;
    this.middleware = tokenlessMiddleware(session);
  }

  /** The model with this conversation's middleware in front of it. */
  wrap(model: LanguageModelV3): LanguageModelV3 {
    return wrapLanguageModel({ model, middleware: this.middleware });
  }

  /** The caller's tools (command tools behind pre_tool) plus the retrieve tool; pass these to generateText. */
  tools<T extends ToolSet>(tools: T): T & Record<string, Tool> {
    return withTokenlessTools(this.session, tools);
  }

  get visibleMarkers(): string[] {
    return this.session.visibleMarkers;
  }
}

export interface TokenlessAiSdk {
  conversation(sessionId: string): AiSdkConversation;
}

/** Validates the tool contracts once; each conversation then gets its own state and shares only the SDK. */
export function createTokenlessAiSdk(options: TokenlessAiSdkOptions): TokenlessAiSdk {
  const contracts = ToolContracts.from(options.contracts);
  return {
    conversation: (sessionId) => new AiSdkConversation(new TokenlessSession({ sdk: options.sdk, agentId: options.agentId, sessionId, contracts })),
  };
}
