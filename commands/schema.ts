import * as z from 'zod/mini';
import { compressTools, LOSSLESS_SCHEMA, SCHEMA_DEFAULTS } from '../src/schema/compress.ts';
import { estimateTokens } from '../src/tokens/estimate.ts';
import { parseOptions } from './shared/options.ts';
import { parseBody, print } from './shared/context-io.ts';

const SchemaOptions = z.object({ mode: z.optional(z.enum(['recoverable', 'lossless'])), json: z.optional(z.boolean()), realTokens: z.optional(z.boolean()) });

/** `syt schema FILE`: what before_model's schema compression does to a request's tools (nothing is stashed). */
export async function schemaCommand(file: string, raw: unknown): Promise<void> {
  const options = parseOptions(SchemaOptions, raw, 'schema');
  const tools = parseBody(file).tools ?? [];
  const result = compressTools(tools, options.mode === 'lossless' ? LOSSLESS_SCHEMA : SCHEMA_DEFAULTS);
  const before = JSON.stringify(tools);
  const after = JSON.stringify(result.tools);
  const count = options.realTokens === true ? await (await import('../src/tokens/count.ts')).tokenCounter() : estimateTokens;
  const report = {
    file,
    mode: options.mode ?? 'recoverable',
    tools: tools.length,
    before_bytes: Buffer.byteLength(before),
    after_bytes: Buffer.byteLength(after),
    before_tokens: count(before),
    after_tokens: count(after),
    token_method: options.realTokens === true ? 'o200k' : 'estimated',
    stashed_originals: result.stash.length,
    per_tool: result.report,
  };
  if (options.json === true) {
    print(JSON.stringify(report));
    return;
  }
  const pct = (a: number, b: number) => (a === 0 ? '0.0' : ((1 - b / a) * 100).toFixed(1));
  print(`${report.tools} tools: ${report.before_bytes} -> ${report.after_bytes} bytes (-${pct(report.before_bytes, report.after_bytes)}%), ${report.before_tokens} -> ${report.after_tokens} tokens ${report.token_method} (-${pct(report.before_tokens, report.after_tokens)}%)`);
  for (const tool of report.per_tool) print(`  ${String(tool.name).padEnd(26)} ${tool.before_bytes} -> ${tool.after_bytes}`);
}
