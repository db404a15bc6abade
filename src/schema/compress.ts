/**
 * Recoverable compression of tool definitions for before_model: canonical key order, redundant schema keywords
 * removed, long descriptions cut at natural boundaries with the whole original definition stashed behind one
 * marker per tool. Nothing here changes which arguments are valid, and the same tools always give the same bytes.
 */
import type { ToolDefinition } from '../protocol/schemas.ts';
import { elide, type StashEntry } from '../reduce/candidate.ts';
import { shortenProse } from './describe.ts';
import { pruneSchema } from './prune.ts';
import { toolParts, withParts } from './tool-shape.ts';

export interface SchemaOptions {
  /** Tool descriptions longer than this many characters are shortened (original stashed); 0 never shortens. */
  readonly maxToolDescription: number;
  /** Parameter descriptions longer than this are shortened; 0 never shortens. */
  readonly maxParamDescription: number;
}

/**
 * Tuned on Claude Code's own tools: the first paragraphs of its long descriptions state what the tool does and when
 * to use it; the rest is usage policy the model can fetch through the marker when it needs it.
 */
export const SCHEMA_DEFAULTS: SchemaOptions = { maxToolDescription: 1200, maxParamDescription: 240 };

export const LOSSLESS_SCHEMA: SchemaOptions = { maxToolDescription: 0, maxParamDescription: 0 };

export type ToolReport = {
  readonly name: string | null;
  readonly before_bytes: number;
  readonly after_bytes: number;
  readonly removed_keywords: number;
  readonly shortened_descriptions: number;
  readonly stash_key?: string;
};

export interface CompressedTools {
  readonly tools: ToolDefinition[];
  /** Originals behind the markers in `tools`; stash them before showing `tools`. */
  readonly stash: StashEntry[];
  readonly report: ToolReport[];
  readonly operations: string[];
}

/** Compresses every tool on its own; a tool that would not get strictly shorter is kept exactly as given. */
export function compressTools(tools: readonly ToolDefinition[], options: SchemaOptions = SCHEMA_DEFAULTS): CompressedTools {
  const out: ToolDefinition[] = [];
  const stash: StashEntry[] = [];
  const report: ToolReport[] = [];
  const operations = new Set<string>();
  for (const tool of tools) {
    const result = compressTool(tool, options);
    out.push(result.tool);
    report.push(result.report);
    if (result.entry !== null) stash.push(result.entry);
    for (const operation of result.operations) operations.add(operation);
  }
  return { tools: out, stash, report, operations: [...operations].sort() };
}

interface OneTool {
  tool: ToolDefinition;
  report: ToolReport;
  entry: StashEntry | null;
  operations: string[];
}

function compressTool(tool: ToolDefinition, options: SchemaOptions): OneTool {
  const original = JSON.stringify(tool);
  const beforeBytes = Buffer.byteLength(original);
  const parts = toolParts(tool);
  const unchanged: OneTool = {
    tool,
    report: { name: parts?.name ?? null, before_bytes: beforeBytes, after_bytes: beforeBytes, removed_keywords: 0, shortened_descriptions: 0 },
    entry: null,
    operations: [],
  };
  if (parts === null) return unchanged;
  const pruned = parts.schema === undefined
    ? { schema: undefined, report: { removed: 0, shortened: 0 } }
    : pruneSchema(parts.schema, { maxDescription: options.maxParamDescription, shorten: shortenProse });
  let description = parts.description === undefined ? undefined : shortenProse(parts.description, options.maxToolDescription);
  const shortened = pruned.report.shortened + (description !== parts.description ? 1 : 0);
  let entry: StashEntry | null = null;
  if (shortened > 0) {
    const elided = elide(original);
    entry = elided.entry;
    description = `${description ?? ''}\n[full definition: ${elided.marker}]`.trimStart();
  }
  const rebuilt = withParts(tool, parts, description, pruned.schema);
  const afterBytes = Buffer.byteLength(JSON.stringify(rebuilt));
  if (afterBytes >= beforeBytes) return unchanged;
  const operations = ['schema_canonical_order'];
  if (pruned.report.removed > 0) operations.push('schema_redundant_keywords');
  if (shortened > 0) operations.push('schema_description_shortened');
  return {
    tool: rebuilt,
    report: {
      name: parts.name,
      before_bytes: beforeBytes,
      after_bytes: afterBytes,
      removed_keywords: pruned.report.removed,
      shortened_descriptions: shortened,
      ...(entry !== null ? { stash_key: entry.key } : {}),
    },
    entry,
    operations,
  };
}
