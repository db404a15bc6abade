/**
 * `syt demo`: real captured tool outputs through the same pipeline the hooks and the wrapper use, with every
 * stashed original read back and compared byte for byte.
 */
import * as z from 'zod/mini';
import { PROTOCOL_VERSION } from '../protocol/schemas.ts';
import { staticArgv } from '../rewrite/index.ts';
import { postTool } from '../runtime/post-tool.ts';
import { viewRun } from '../runtime/run-view.ts';
import type { Runtime } from '../runtime/runtime.ts';

export const DemoCase = z.object({
  id: z.string(),
  kind: z.enum(['command', 'post_tool']),
  command: z.string(),
  stdout: z.string(),
  stderr: z.string(),
  exitCode: z.number(),
  source: z.string(),
});
export type DemoCase = z.infer<typeof DemoCase>;
export const DemoCases = z.object({ cases: z.array(DemoCase) });

export interface DemoResult {
  readonly id: string;
  readonly command: string;
  readonly source: string;
  readonly before: string;
  readonly after: string;
  /** Filter or operations applied; null when the output was left as it was. */
  readonly operation: string | null;
  readonly recoverability: string;
  readonly stashKeys: readonly string[];
  /** Every stash key retrieved and equal, byte for byte, to the original it stands for. */
  readonly retrievedExactly: boolean;
}

const DEMO_ATTRIBUTION = { agentId: 'demo', sessionId: 'demo', toolUseId: 'demo' } as const;

export function runDemoCase(runtime: Runtime, demo: DemoCase): DemoResult {
  return demo.kind === 'command' ? runCommandCase(runtime, demo) : runPostToolCase(runtime, demo);
}

function runCommandCase(runtime: Runtime, demo: DemoCase): DemoResult {
  const argv = staticArgv(demo.command) ?? [demo.command];
  const stdout = Buffer.from(demo.stdout);
  const stderr = Buffer.from(demo.stderr);
  const view = viewRun(runtime, { argv, stdout, stderr, exitCode: demo.exitCode }, { ...DEMO_ATTRIBUTION, toolUseId: demo.id });
  const originals = [stdout, stderr];
  const retrievedExactly = view.stashKeys.every((key) => {
    const got = runtime.stash.get(key);
    return got.ok && originals.some((original) => original.equals(got.bytes));
  });
  return {
    id: demo.id,
    command: demo.command,
    source: demo.source,
    before: demo.stdout + demo.stderr,
    after: view.stdout.toString('utf8') + view.stderr.toString('utf8'),
    operation: view.filter,
    recoverability: view.recoverability,
    stashKeys: view.stashKeys,
    retrievedExactly,
  };
}

function runPostToolCase(runtime: Runtime, demo: DemoCase): DemoResult {
  const result = postTool(runtime, {
    protocol_version: PROTOCOL_VERSION,
    operation: 'post_tool',
    attribution: { agent_id: DEMO_ATTRIBUTION.agentId, session_id: DEMO_ATTRIBUTION.sessionId, tool_use_id: demo.id },
    input: { tool_name: 'Grep', status: 'success', origin: 'api_response', content: demo.stdout },
  });
  const retrievedExactly = result.stash_keys.every((key) => runtime.stash.get(key).ok);
  return {
    id: demo.id,
    command: demo.command,
    source: demo.source,
    before: demo.stdout,
    after: result.output,
    operation: result.applied_operations.length > 0 ? result.applied_operations.join('+') : null,
    recoverability: result.recoverability,
    stashKeys: result.stash_keys,
    retrievedExactly,
  };
}
