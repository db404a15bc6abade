import * as z from 'zod/mini';
import { ENGINES } from '../../src/context/engines/capabilities.ts';
import { AnthropicRequestBody, irFromAnthropic } from '../../src/context/from-anthropic.ts';
import { emitRequest, mark } from '../../src/context/plan.ts';
import { describeIssues } from '../../src/protocol/parse.ts';
import { compressTools, LOSSLESS_SCHEMA, SCHEMA_DEFAULTS } from '../../src/schema/compress.ts';
import { estimateTokens } from '../../src/tokens/estimate.ts';
import { CliError } from '../errors.ts';
import { nonNegativeOption, parseOptions } from '../options.ts';
import { print, readJson, requestBody } from './io.ts';

function parseBody(file: string): AnthropicRequestBody {
  const parsed = AnthropicRequestBody.safeParse(requestBody(readJson(file)));
  if (!parsed.success) throw new CliError(`${file}: not an Anthropic Messages request: ${describeIssues(parsed.error)}`, 2);
  return parsed.data;
}

const SchemaOptions = z.object({ mode: z.optional(z.enum(['recoverable', 'lossless'])), json: z.optional(z.boolean()), realTokens: z.optional(z.boolean()) });

/** `syt schema FILE`: what before_model's schema compression does to a request's tools (nothing is stashed). */
export async function schemaCommand(file: string, raw: unknown): Promise<void> {
  const options = parseOptions(SchemaOptions, raw, 'schema');
  const tools = parseBody(file).tools ?? [];
  const result = compressTools(tools, options.mode === 'lossless' ? LOSSLESS_SCHEMA : SCHEMA_DEFAULTS);
  const before = JSON.stringify(tools);
  const after = JSON.stringify(result.tools);
  const count = options.realTokens === true ? await (await import('../../src/tokens/count.ts')).tokenCounter() : estimateTokens;
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

const PlanOptions = z.object({
  engine: z._default(z.enum(ENGINES), 'anthropic'),
  model: z.optional(z.string()),
  session: z._default(z.string(), 'default'),
  rpm: z.optional(nonNegativeOption),
  wire: z.optional(z.boolean()),
  json: z.optional(z.boolean()),
});

/** `syt plan FILE`: the cache plan an engine would get for a captured Anthropic request. */
export function planCommand(file: string, raw: unknown): void {
  const options = parseOptions(PlanOptions, raw, 'plan');
  const body = parseBody(file);
  const ir = irFromAnthropic(body);
  const plan = mark(ir, options.engine, { model: options.model ?? body.model, sessionKey: options.session, requestsPerMinute: Number(options.rpm ?? 0) || 0 });
  const wire = options.wire === true ? emitRequest(ir, plan, { maxTokens: typeof body['max_tokens'] === 'number' ? body['max_tokens'] : 4096 }) : undefined;
  if (options.json === true) {
    print(JSON.stringify({ plan, ...(wire !== undefined ? { wire } : {}) }));
    return;
  }
  print(`engine ${plan.engine}, model ${plan.model}`);
  for (const bp of plan.anthropic?.breakpoints ?? []) print(`  breakpoint ${bp.kind.padEnd(12)} at ${bp.key} (prefix ~${bp.prefixTokens} tokens, priority ${bp.priority})`);
  for (const bp of plan.anthropic?.dropped ?? []) print(`  dropped    ${bp.kind.padEnd(12)} at ${bp.key}: ${bp.reason}`);
  if (plan.routing !== null) print(`  ${plan.routing.field} = ${plan.routing.key}${plan.routing.shards > 1 ? ` (shard ${plan.routing.shard} of ${plan.routing.shards})` : ''}`);
  for (const d of plan.degradations) print(`  degraded   ${d.feature}: ${d.action}`);
  if (wire !== undefined) print(JSON.stringify(wire));
}
