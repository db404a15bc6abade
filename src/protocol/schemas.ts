/**
 * The native lifecycle protocol (protocol_version 2): one zod schema per request and result, shared by the hook
 * entry, the library and (later) the SDK. Built with zod/mini because these run on the hook's hot path.
 */
import * as z from 'zod/mini';
import { DISPOSITIONS, LIFECYCLES, PROTOCOL_VERSION } from './names.ts';

export { DISPOSITIONS, LIFECYCLES, PROTOCOL_VERSION } from './names.ts';

export const Lifecycle = z.enum(LIFECYCLES);
export type Lifecycle = z.infer<typeof Lifecycle>;

export const Disposition = z.enum(DISPOSITIONS);
export type Disposition = z.infer<typeof Disposition>;

export const ContentOriginSchema = z.enum(['command_output', 'file_content', 'api_response']);
export const ToolStatus = z.enum(['success', 'error', 'interrupted', 'denied']);
export type ToolStatus = z.infer<typeof ToolStatus>;
export const RecoverabilitySchema = z.enum(['lossless', 'retrievable', 'unrecoverable']);
export const ContentTypeSchema = z.enum([
  'json',
  'search_results',
  'build_log',
  'stack_trace',
  'diff',
  'html',
  'tabular',
  'source_code',
  'plain_text',
]);

const nonEmpty = z.string().check(z.minLength(1));

/** Who is calling: there is no process-wide "current session", every call says it. */
export const Attribution = z.object({
  agent_id: nonEmpty,
  session_id: nonEmpty,
  tool_use_id: z.optional(nonEmpty),
});
export type Attribution = z.infer<typeof Attribution>;

/** An OpenAI function-calling tool object, or an Anthropic tool definition; fields we don't touch are kept. */
export const ToolDefinition = z.looseObject({});
export type ToolDefinition = z.infer<typeof ToolDefinition>;

export const BeforeModelInput = z.object({
  tools: z.array(ToolDefinition),
  messages: z.optional(z.array(z.unknown())),
  visible_markers: z.optional(z.array(z.string())),
  /** `recoverable` (default): prune and shorten with originals stashed; `lossless`: prune only; `off`. */
  schema_compression: z.optional(z.enum(['recoverable', 'lossless', 'off'])),
  /** Opt-in CAL tool tiers for this turn (changes what is offered, unlike schema compression). */
  tool_stubs: z.optional(
    z.object({
      query: z.string(),
      core_tools: z.optional(z.array(z.string())),
      triggers: z.optional(z.record(z.string(), z.array(z.string()))),
    }),
  ),
});
export type BeforeModelInput = z.infer<typeof BeforeModelInput>;

export const PreToolInput = z.object({
  tool_name: nonEmpty,
  arguments: z.record(z.string(), z.unknown()),
  command_field: z.optional(nonEmpty),
});
export type PreToolInput = z.infer<typeof PreToolInput>;

export const PostToolInput = z.object({
  tool_name: nonEmpty,
  status: ToolStatus,
  origin: ContentOriginSchema,
  content: z.string(),
  result_kind: z.optional(z.enum(['tool', 'retrieve'])),
  /** The shell command line that printed a `command_output`, when known: the content policy reads what it ran. */
  command: z.optional(z.string()),
});
export type PostToolInput = z.infer<typeof PostToolInput>;

export const RetrieveInput = z.object({
  marker: nonEmpty,
  visible_markers: z.array(z.string()),
});
export type RetrieveInput = z.infer<typeof RetrieveInput>;

export const BeforeModelResult = z.object({
  disposition: Disposition,
  tools: z.array(ToolDefinition),
  visible_markers: z.array(z.string()),
  retrieve_tool: z.optional(ToolDefinition),
  reason: z.optional(z.string()),
  /** What schema compression did: bytes and estimated tokens before/after, per tool. */
  schema_report: z.optional(z.looseObject({})),
  /** The CAL tier chosen when `tool_stubs` was given, and the tools kept whole because the history used them. */
  tool_tier: z.optional(z.number()),
  history_protected: z.optional(z.array(z.string())),
});
export type BeforeModelResult = z.infer<typeof BeforeModelResult>;

export const PreToolResult = z.object({
  disposition: Disposition,
  action: z.enum(['passthrough', 'replace_arguments', 'block_and_suggest']),
  arguments: z.optional(z.record(z.string(), z.unknown())),
  reason: z.optional(z.string()),
});
export type PreToolResult = z.infer<typeof PreToolResult>;

export const PostToolResult = z.object({
  disposition: Disposition,
  output: z.string(),
  content_type: ContentTypeSchema,
  applied_operations: z.array(z.string()),
  recoverability: RecoverabilitySchema,
  before_tokens: z.number(),
  after_tokens: z.number(),
  /** Always `estimated` on the hook path: the real tokenizer is never loaded there. */
  token_method: z.optional(z.enum(['estimated', 'o200k'])),
  stash_keys: z.array(z.string()),
  visible_markers: z.array(z.string()),
  hint: z.optional(z.string()),
  reason: z.optional(z.string()),
});
export type PostToolResult = z.infer<typeof PostToolResult>;

export const RetrieveResult = z.object({
  disposition: Disposition,
  content: z.string(),
  /** base64 of the exact bytes when they are not valid UTF-8 (then `content` is a lossy preview). */
  content_base64: z.optional(z.string()),
});
export type RetrieveResult = z.infer<typeof RetrieveResult>;

const envelope = <O extends Lifecycle, I extends z.ZodMiniType>(operation: O, input: I) =>
  z.object({
    protocol_version: z.literal(PROTOCOL_VERSION),
    operation: z.literal(operation),
    attribution: Attribution,
    input,
  });

export const BeforeModelRequest = envelope('before_model', BeforeModelInput);
export const PreToolRequest = envelope('pre_tool', PreToolInput);
export const PostToolRequest = envelope('post_tool', PostToolInput);
export const RetrieveRequest = envelope('retrieve', RetrieveInput);
export type BeforeModelRequest = z.infer<typeof BeforeModelRequest>;
export type PreToolRequest = z.infer<typeof PreToolRequest>;
export type PostToolRequest = z.infer<typeof PostToolRequest>;
export type RetrieveRequest = z.infer<typeof RetrieveRequest>;

export const REQUEST_SCHEMAS = {
  before_model: BeforeModelRequest,
  pre_tool: PreToolRequest,
  post_tool: PostToolRequest,
  retrieve: RetrieveRequest,
} as const satisfies Record<Lifecycle, z.ZodMiniType>;

export const RESULT_SCHEMAS = {
  before_model: BeforeModelResult,
  pre_tool: PreToolResult,
  post_tool: PostToolResult,
  retrieve: RetrieveResult,
} as const satisfies Record<Lifecycle, z.ZodMiniType>;

export interface LifecycleTypes {
  before_model: { request: BeforeModelRequest; result: BeforeModelResult };
  pre_tool: { request: PreToolRequest; result: PreToolResult };
  post_tool: { request: PostToolRequest; result: PostToolResult };
  retrieve: { request: RetrieveRequest; result: RetrieveResult };
}

export type LifecycleRequest<L extends Lifecycle> = LifecycleTypes[L]['request'];
export type LifecycleResult<L extends Lifecycle> = LifecycleTypes[L]['result'];

/** The answer envelope: the request's attribution echoed, one result. */
export interface ResponseEnvelope<L extends Lifecycle> {
  protocol_version: typeof PROTOCOL_VERSION;
  operation: L;
  attribution: Attribution;
  result: LifecycleResult<L>;
}
