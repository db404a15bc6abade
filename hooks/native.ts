import { parseRequest } from '../src/protocol/parse.ts';
import { PROTOCOL_VERSION, type Attribution, type Lifecycle } from '../src/protocol/schemas.ts';
import { beforeModel } from '../src/runtime/before-model.ts';
import { postTool } from '../src/runtime/post-tool.ts';
import { preTool } from '../src/runtime/pre-tool.ts';
import { retrieve } from '../src/runtime/retrieve.ts';
import type { Runtime } from '../src/runtime/runtime.ts';
import { failed, malformed, ok, type HookOutcome } from './outcome.ts';

/** Answers one native protocol_version 2 envelope. */
export function handleNative(lifecycle: Lifecycle, raw: unknown, runtime: Runtime, wrapperCommand: string): HookOutcome {
  const parsed = parseRequest(lifecycle, raw);
  if (!parsed.ok) return malformed(`invalid ${lifecycle} envelope: ${parsed.reason}`);
  const request = parsed.value;
  const answer = (attribution: Attribution, result: unknown): HookOutcome =>
    ok({ protocol_version: PROTOCOL_VERSION, operation: lifecycle, attribution, result });
  switch (request.operation) {
    case 'pre_tool':
      return answer(request.attribution, preTool(runtime, request, { wrapperCommand }));
    case 'post_tool':
      return answer(request.attribution, postTool(runtime, request));
    case 'retrieve': {
      const outcome = retrieve(runtime, request);
      return outcome.ok ? answer(request.attribution, outcome.result) : failed(outcome.reason);
    }
    case 'before_model': {
      const outcome = beforeModel(request);
      return outcome.ok ? answer(request.attribution, outcome.result) : failed(outcome.reason);
    }
  }
}
