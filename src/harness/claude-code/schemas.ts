/** Claude Code hook stdin (2.1.x), as captured in the lab; only the fields we read are required. */
import * as z from 'zod/mini';

export const HookCommon = z.looseObject({
  session_id: z.string().check(z.minLength(1)),
  hook_event_name: z.string(),
  cwd: z.optional(z.string()),
  permission_mode: z.optional(z.string()),
  transcript_path: z.optional(z.string()),
  agent_id: z.optional(z.string()),
});

export const PreToolUseInput = z.extend(HookCommon, {
  hook_event_name: z.literal('PreToolUse'),
  tool_name: z.string(),
  tool_input: z.record(z.string(), z.unknown()),
  tool_use_id: z.string().check(z.minLength(1)),
});
export type PreToolUseInput = z.infer<typeof PreToolUseInput>;

export const PostToolUseInput = z.extend(HookCommon, {
  hook_event_name: z.literal('PostToolUse'),
  tool_name: z.string(),
  tool_input: z.record(z.string(), z.unknown()),
  tool_response: z.unknown(),
  tool_use_id: z.string().check(z.minLength(1)),
});
export type PostToolUseInput = z.infer<typeof PostToolUseInput>;

export const BashResponse = z.looseObject({
  stdout: z.string(),
  stderr: z.string(),
  interrupted: z.boolean(),
  isImage: z.optional(z.boolean()),
  noOutputExpected: z.optional(z.boolean()),
  persistedOutputPath: z.optional(z.string()),
  persistedOutputSize: z.optional(z.number()),
});
export type BashResponse = z.infer<typeof BashResponse>;

export const GrepResponse = z.looseObject({
  mode: z.optional(z.string()),
  numFiles: z.number(),
  filenames: z.array(z.string()),
  content: z.optional(z.string()),
  numLines: z.optional(z.number()),
});
export type GrepResponse = z.infer<typeof GrepResponse>;

export const ReadResponse = z.looseObject({
  type: z.string(),
  file: z.looseObject({
    filePath: z.string(),
    content: z.string(),
    numLines: z.number(),
    startLine: z.number(),
    totalLines: z.number(),
  }),
});
export type ReadResponse = z.infer<typeof ReadResponse>;

export const GlobResponse = z.looseObject({
  filenames: z.array(z.string()),
  numFiles: z.number(),
  durationMs: z.number(),
  truncated: z.boolean(),
});
export type GlobResponse = z.infer<typeof GlobResponse>;

export const WebFetchResponse = z.looseObject({
  result: z.string(),
  url: z.string(),
  code: z.number(),
});
export type WebFetchResponse = z.infer<typeof WebFetchResponse>;

/** An MCP tool's result as PostToolUse gets it: its content blocks (`McpOutput` in the client's sdk-tools.d.ts). */
export const McpTextResponse = z.union([z.string(), z.tuple([z.looseObject({ type: z.literal('text'), text: z.string() })])]);
