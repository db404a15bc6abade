/**
 * TokenlessSession: one conversation's state, kept by the adapter and never by the SDK. It holds the visible marker
 * set (what retrieve authorises) and the view already given for each tool result, so a result that re-enters the
 * prompt on every step is compressed and recorded once and shows the model the same bytes each time (prompt caches
 * stay warm).
 */
import type { Attribution, BeforeModelResult, ToolDefinition, ToolStatus } from '../protocol/schemas.ts';
import { parseMarker } from '../store/marker.ts';
import type { ToolContracts } from './contracts.ts';
import type { TokenlessSdk } from './sdk.ts';

export interface TokenlessSessionOptions {
  readonly sdk: TokenlessSdk;
  readonly agentId: string;
  readonly sessionId: string;
  readonly contracts: ToolContracts;
}

interface ToolView {
  readonly content: string;
  readonly output: string;
}

export class TokenlessSession {
  readonly sdk: TokenlessSdk;
  readonly contracts: ToolContracts;
  readonly attribution: Readonly<Attribution>;
  readonly #visible = new Set<string>();
  readonly #views = new Map<string, ToolView>();
  /** Tool uses whose command now runs through our wrapper: their output is already filtered, post_tool skips it. */
  readonly #wrapped = new Set<string>();
  /** Tokens saved by this session's adopted post_tool views (estimated). */
  #savedTokens = 0;

  constructor(options: TokenlessSessionOptions) {
    this.sdk = options.sdk;
    this.contracts = options.contracts;
    this.attribution = { agent_id: options.agentId, session_id: options.sessionId };
  }

  /** The markers this conversation has shown the model, sorted: exactly what retrieve will answer. */
  get visibleMarkers(): string[] {
    return [...this.#visible].sort();
  }

  get savedTokens(): number {
    return this.#savedTokens;
  }

  isRetrieveTool(toolName: string): boolean {
    return toolName === this.sdk.retrieveToolName;
  }

  /**
   * before_model on the tools about to be offered. Messages are optional and scanned for markers, which then count as
   * visible: pass only text Tokenless produced, never what the model or a tool could have typed.
   */
  async prepareTools(tools: readonly ToolDefinition[], messages?: readonly unknown[]): Promise<BeforeModelResult> {
    const result = await this.sdk.beforeModel({
      attribution: this.attribution,
      input: { tools: [...tools], visible_markers: this.visibleMarkers, ...(messages !== undefined ? { messages: [...messages] } : {}) },
    });
    this.#remember(result.visible_markers);
    return result;
  }

  /** pre_tool on a call's arguments when the tool's contract names a command field; otherwise the arguments as given. */
  async toolArguments(toolName: string, toolUseId: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const field = this.contracts.get(toolName)?.commandField;
    if (field === undefined) return args;
    const result = await this.sdk.preTool({
      attribution: { ...this.attribution, tool_use_id: toolUseId },
      input: { tool_name: toolName, arguments: args, command_field: field },
    });
    if (result.action !== 'replace_arguments' || result.arguments === undefined) return args;
    this.#wrapped.add(toolUseId);
    return result.arguments;
  }

  /**
   * The text the model should see for one tool result. Retrieve output and tools without a contract are passed
   * through untouched; failed tools are never compressed, nor output our wrapper already filtered. The same result asked for again gets the same view.
   */
  async toolResult(toolName: string, toolUseId: string, content: string, status: ToolStatus = 'success'): Promise<string> {
    if (this.isRetrieveTool(toolName)) return content;
    const input = this.contracts.postToolInput(toolName, content, status);
    if (input === null || status !== 'success' || this.#wrapped.has(toolUseId)) return content;
    const known = this.#views.get(toolUseId);
    if (known !== undefined && known.content === content) return known.output;
    const result = await this.sdk.postTool({ attribution: { ...this.attribution, tool_use_id: toolUseId }, input });
    this.#remember(result.visible_markers);
    if (result.disposition === 'applied') this.#savedTokens += result.before_tokens - result.after_tokens;
    this.#views.set(toolUseId, { content, output: result.output });
    return result.output;
  }

  /** The exact original behind a marker this conversation was shown; rejects for any other marker. */
  async retrieve(marker: string): Promise<string> {
    const result = await this.sdk.retrieve({ attribution: this.attribution, input: { marker, visible_markers: this.visibleMarkers } });
    return result.content;
  }

  #remember(markers: readonly string[]): void {
    for (const marker of markers) {
      const key = parseMarker(marker);
      if (key !== null) this.#visible.add(key);
    }
  }
}
