/**
 * TokenlessSdk: the engine in process, for TypeScript agents. Four lifecycle methods, each taking
 * `{ attribution, input }` and resolving to the lifecycle's `result`, validated by the same zod schemas as the
 * native hook envelope (`tokenless hook <lifecycle>`), so the SDK and the CLI answer the same input the same way.
 *
 * No session state lives here: every call carries its attribution, and the visible marker set is kept by the caller
 * (see TokenlessSession). One Runtime per instance is safe for many concurrent sessions: better-sqlite3 is
 * synchronous, so each lifecycle call runs to completion without interleaving inside it.
 */
import { parseRequest } from '../protocol/parse.ts';
import {
  PROTOCOL_VERSION,
  type Attribution,
  type BeforeModelInput,
  type BeforeModelResult,
  type Lifecycle,
  type LifecycleRequest,
  type PostToolInput,
  type PostToolResult,
  type PreToolInput,
  type PreToolResult,
  type RetrieveInput,
  type RetrieveResult,
  type ToolDefinition,
} from '../protocol/schemas.ts';
import { beforeModel, RETRIEVE_TOOL_NAME } from '../runtime/before-model.ts';
import { postTool } from '../runtime/post-tool.ts';
import { preTool } from '../runtime/pre-tool.ts';
import { retrieve } from '../runtime/retrieve.ts';
import { Runtime } from '../runtime/runtime.ts';
import { toolNameOf } from '../schema/tool-shape.ts';
import { resolveSdkConfig, type TokenlessSdkConfig } from './config.ts';
import { TokenlessError } from './errors.ts';
import { TokenlessStats } from './stats.ts';
import { defaultWrapperCommand } from './wrapper.ts';

/** One lifecycle call: who is calling, and the lifecycle's input (the native envelope without its header). */
export interface LifecycleCall<I> {
  readonly attribution: Attribution;
  readonly input: I;
}

export class TokenlessSdk {
  /** The name the retrieve tool is published under; adapters mark its results `result_kind: "retrieve"`. */
  readonly retrieveToolName: string;
  readonly dataDir: string;
  readonly #runtime: Runtime;
  readonly #wrapperCommand: string | undefined;
  #stats: TokenlessStats | null = null;
  #closed = false;

  constructor(config: TokenlessSdkConfig = {}) {
    const resolved = resolveSdkConfig(config);
    this.#runtime = new Runtime(resolved.runtime);
    this.retrieveToolName = resolved.retrieveToolName;
    this.dataDir = resolved.runtime.dataDir;
    this.#wrapperCommand = resolved.wrapperCommand;
  }

  /** Recoverable tool-schema compression; the exact visible marker set; the retrieve tool when one is visible. */
  beforeModel(call: LifecycleCall<BeforeModelInput>): Promise<BeforeModelResult> {
    return settle(() => {
      const request = this.#parse('before_model', call);
      const outcome = beforeModel(this.#runtime, request);
      if (!outcome.ok) throw new TokenlessError('operation_failed', outcome.reason);
      return this.#renameRetrieveTool(request.input.tools, outcome.result);
    });
  }

  /** Rewrites the command argument the input names (`command_field`) so filterable segments run through the wrapper. */
  preTool(call: LifecycleCall<PreToolInput>): Promise<PreToolResult> {
    return settle((): PreToolResult => {
      const request = this.#parse('pre_tool', call);
      const wrapperCommand = this.#wrapperCommand ?? defaultWrapperCommand();
      if (wrapperCommand === null) {
        return { disposition: 'passthrough', action: 'passthrough', reason: 'no wrapper command: build the CLI or set wrapperCommand' };
      }
      return preTool(this.#runtime, request, { wrapperCommand });
    });
  }

  /** Compresses one tool result the model is about to see; the original is stashed when the view is lossy. */
  postTool(call: LifecycleCall<PostToolInput>): Promise<PostToolResult> {
    return settle(() => postTool(this.#runtime, this.#parse('post_tool', call)));
  }

  /** The exact original behind a marker, if the session was shown it; otherwise rejects with `operation_failed`. */
  retrieve(call: LifecycleCall<RetrieveInput>): Promise<RetrieveResult> {
    return settle(() => {
      const outcome = retrieve(this.#runtime, this.#parse('retrieve', call));
      if (!outcome.ok) throw new TokenlessError('operation_failed', outcome.reason);
      return outcome.result;
    });
  }

  /** The read-only stats client over this instance's data dir, opened on first use (a damaged stats.db never stops compression). */
  get stats(): TokenlessStats {
    this.#assertOpen();
    this.#stats ??= new TokenlessStats(this.dataDir);
    return this.#stats;
  }

  /** Closes the SQLite handles; later calls reject with `closed`. */
  close(): void {
    this.#closed = true;
    this.#runtime.close();
  }

  #assertOpen(): void {
    if (this.#closed) throw new TokenlessError('closed', 'this TokenlessSdk was closed');
  }

  /** The native envelope's own validation, so the SDK accepts exactly what `tokenless hook` accepts. */
  #parse<L extends Lifecycle>(lifecycle: L, call: LifecycleCall<unknown>): LifecycleRequest<L> {
    this.#assertOpen();
    const envelope = { protocol_version: PROTOCOL_VERSION, operation: lifecycle, attribution: call.attribution, input: call.input };
    const parsed = parseRequest(lifecycle, envelope);
    if (!parsed.ok) throw new TokenlessError('invalid_input', `invalid ${lifecycle} call: ${parsed.reason}`);
    return parsed.value;
  }

  /** Publishes the retrieve tool under the configured name, and not at all when the caller already offers it. */
  #renameRetrieveTool(callerTools: readonly ToolDefinition[], result: BeforeModelResult): BeforeModelResult {
    const name = this.retrieveToolName;
    if (name === RETRIEVE_TOOL_NAME || result.retrieve_tool === undefined) return result;
    if (callerTools.some((tool) => toolNameOf(tool) === name)) {
      const { retrieve_tool: _dropped, ...rest } = result;
      return rest;
    }
    return { ...result, retrieve_tool: renamed(result.retrieve_tool, name) };
  }
}

function renamed(tool: ToolDefinition, name: string): ToolDefinition {
  const fn = tool['function'];
  if (typeof fn === 'object' && fn !== null) return { ...tool, function: { ...fn, name } };
  return { ...tool, name };
}

/**
 * Runs one synchronous lifecycle call and hands back a settled promise: a throw becomes a rejection, never a
 * synchronous exception, so callers can treat every method as an ordinary async function.
 */
function settle<T>(run: () => T): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
