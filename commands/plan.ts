import * as z from 'zod/mini';
import { ENGINES } from '../src/context/engines/capabilities.ts';
import { irFromAnthropic } from '../src/context/from-anthropic.ts';
import { emitRequest, mark } from '../src/context/plan.ts';
import { nonNegativeOption, parseOptions } from './shared/options.ts';
import { parseBody, print } from './shared/context-io.ts';

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
