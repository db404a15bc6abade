/**
 * The gateway's lossless request change (the session policies of ./policies.ts run first), and why it keeps the
 * prompt cache: a pure function of the `tools` array alone (lossless schema compression: canonical order, redundant keywords removed, every description kept),
 * so every request of a session carries byte-identical tools. System and messages, the history already sent, are
 * never touched. Anything unexpected forwards the original bytes unchanged.
 */
import { compressTools, LOSSLESS_SCHEMA } from '../schema/compress.ts';
import { parseBody, type ParsedBody } from './canonical-json.ts';

export type GatewaySchemaMode = 'off' | 'lossless';

export interface Rewritten {
  readonly body: Buffer;
  readonly savedBytes: number;
}

/**
 * `parsed`: `original` already parsed and checked by the caller (the policies parse every request), so it is not
 * parsed twice. A body whose re-serialisation would change any value (./canonical-json.ts) is forwarded untouched.
 */
export function rewriteRequest(original: Buffer, mode: GatewaySchemaMode, parsed: ParsedBody | null = null): Rewritten {
  if (mode === 'off') return { body: original, savedBytes: 0 };
  const checked = parsed ?? parseBody(original);
  if (checked === null || checked.unfaithful !== null) return { body: original, savedBytes: 0 };
  const body = checked.document;
  const tools = body['tools'];
  if (!Array.isArray(tools) || !tools.every((tool) => typeof tool === 'object' && tool !== null && !Array.isArray(tool))) return { body: original, savedBytes: 0 };
  const compressed = compressTools(tools as Array<Record<string, unknown>>, LOSSLESS_SCHEMA);
  const before = Buffer.byteLength(JSON.stringify(tools));
  const after = Buffer.byteLength(JSON.stringify(compressed.tools));
  if (after >= before) return { body: original, savedBytes: 0 };
  const out = Buffer.from(JSON.stringify({ ...body, tools: compressed.tools }), 'utf8');
  return { body: out, savedBytes: before - after };
}
