import * as z from 'zod/mini';
import { loadConfig } from '../src/config/config.ts';
import { explainRewrite } from '../src/rewrite/index.ts';
import { planCommand } from '../src/runtime/pre-tool.ts';
import { Runtime } from '../src/runtime/runtime.ts';
import { CLAUDE_CODE_REWRITE } from '../src/runtime/wrap-policy.ts';
import { wrapperCommand } from '../src/shell/wrapper-command.ts';
import { parseOptions } from './shared/options.ts';
import { attributionFromEnv } from './run.ts';

const Options = z.object({ json: z.optional(z.boolean()) });

/** `tokenless rewrite "<command>"`: what pre_tool would run instead, segment by segment, with reasons. */
export function rewriteCommand(command: string, raw: unknown): void {
  const options = parseOptions(Options, raw, 'rewrite');
  const runtime = new Runtime(loadConfig());
  const attribution = attributionFromEnv(process.env);
  const plan = planCommand(command, runtime, { wrapperCommand: wrapperCommand(), ...CLAUDE_CODE_REWRITE }, {
    TOKENLESS_AGENT_ID: attribution.agentId,
    TOKENLESS_SESSION_ID: attribution.sessionId,
  });
  process.stdout.write(options.json === true ? `${JSON.stringify(plan)}\n` : `${explainRewrite(plan)}\n`);
}
