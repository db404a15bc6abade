import { parseRequest } from '../src/protocol/parse.ts';
import type { Attribution, Lifecycle } from '../src/protocol/schemas.ts';
import { PROTOCOL_VERSION } from '../src/protocol/names.ts';
import type { Runtime } from '../src/runtime/runtime.ts';
import { failed, malformed, ok, type HookOutcome } from './outcome.ts';

/**
 * Answers one native protocol_version 2 envelope. Each lifecycle's engine is imported only when it is called, so a
 * pre_tool decision never loads the compressors and a post_tool call never loads the shell parser.
 */
export async function handleNative(lifecycle: Lifecycle, raw: unknown, runtime: Runtime, wrapperCommand: string): Promise<HookOutcome> {
  const parsed = parseRequest(lifecycle, raw);
  if (!parsed.ok) return malformed(`invalid ${lifecycle} envelope: ${parsed.reason}`);
  const request = parsed.value;
  const answer = (attribution: Attribution, result: unknown): HookOutcome =>
    ok({ protocol_version: PROTOCOL_VERSION, operation: lifecycle, attribution, result });
  switch (request.operation) {
    case 'pre_tool':
      return answer(request.attribution, (await import('../src/runtime/pre-tool.ts')).preTool(runtime, request, { wrapperCommand }));
    case 'post_tool':
      return answer(request.attribution, (await import('../src/runtime/post-tool.ts')).postTool(runtime, request));
    case 'retrieve': {
      const outcome = (await import('../src/runtime/retrieve.ts')).retrieve(runtime, request);
      return outcome.ok ? answer(request.attribution, outcome.result) : failed(outcome.reason);
    }
    case 'before_model': {
      const outcome = (await import('../src/runtime/before-model.ts')).beforeModel(runtime, request);
      return outcome.ok ? answer(request.attribution, outcome.result) : failed(outcome.reason);
    }
  }
}
