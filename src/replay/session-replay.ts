/**
 * Session replay: every tool call of a recorded Claude Code session goes through the real hook entry point
 * (`answerClaudeCodeEvent`), in process and offline, as the client would have sent it with our hooks installed
 * (the events and matchers `syt init` registers). What the agent would then have seen is rebuilt from the recorded
 * output: a rewritten Bash line through its line view (the offline twin of `tokenless run`), any other result
 * through PostToolUse's `updatedToolOutput`, rendered as the client renders it. Token counts before and after, and
 * what each saved token would have cost: written to the cache once by the first request that carries the result
 * (1.25x input) and read (0.1x) by every later request whose message chain contains it.
 */
import { answerClaudeCodeEvent } from '../harness/claude-code/answer.ts';
import { ourGroups } from '../harness/claude-code/install.ts';
import { priceFor, type ModelPrice } from '../cost/pricing.ts';
import { DEFAULT_VIEW_MIN_BYTES } from '../config/view-threshold.ts';
import { pricedTotals } from '../cost/usage-report.ts';
import { viewLine, type LineView } from '../runtime/line-view.ts';
import { attributionEnv, planCommand } from '../runtime/pre-tool.ts';
import { CLAUDE_CODE_REWRITE } from '../runtime/wrap-policy.ts';
import { retrieveBytes } from '../runtime/retrieve.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { markerFor, markersIn } from '../store/marker.ts';
import { NET_ASSUMPTIONS, turnCost } from '../cost/net.ts';
import type { RequestUsage } from '../transcript/claude-code.ts';
import { hiddenWordsUsed, WordIndex } from './evidence.ts';
import { commandFamily, type Family } from './families.ts';
import { renderBash, renderReplacement } from './render.ts';
import type { RecordedCall, RecordedSession } from './transcript.ts';

export type ReplayMode = 'default' | 'bypass';
export const REPLAY_MODES: readonly ReplayMode[] = ['default', 'bypass'];
const PERMISSION_MODE: Record<ReplayMode, string> = { default: 'default', bypass: 'bypassPermissions' };
const AGENT_ID = 'claude-code';

export interface ReplayContext {
  readonly runtime: Runtime;
  /** HOME, CLAUDE_CONFIG_DIR and CLAUDE_PROJECT_DIR the hook sees for this session (an empty settings setup). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Our binary as the rewritten commands name it (static words). */
  readonly wrapperCommand: string;
  readonly mode: ReplayMode;
  readonly countTokens: (text: string) => number;
  /**
   * Moves the runtime's clock to each call's recorded time, so what depends on time between calls (the loop breaker's
   * re-run window) sees the session's own pace. Without it every call happens at one instant.
   */
  readonly setNow?: (ms: number) => void;
}

export type LineOutcome = 'view' | 'declined' | 'unchanged-view';

export interface CallReplay {
  readonly toolUseId: string;
  readonly tool: string;
  /** Bash only: which kind of command produced the output. */
  readonly family: Family | null;
  /** False for a call that never ran (rejected by the person, cancelled with a sibling). */
  readonly ran: boolean;
  readonly failed: boolean;
  readonly sidechain: boolean;
  readonly before: number;
  readonly after: number;
  /** PreToolUse answered with updatedInput (allow or ask: every call of these sessions was approved). */
  readonly rewritten: boolean;
  readonly decision: string | null;
  /** For a rewritten Bash line: whether its line view applied, and why not. */
  readonly line: {
    readonly outcome: LineOutcome;
    readonly reason: string;
    readonly filter: string | null;
    /** Top-level segments of the line, and how many of them the rewrite wrapped. */
    readonly segments: number;
    readonly wrapped: number;
    /** For a line counted unchanged because an unwrapped segment prints: why each such segment stays as typed. */
    readonly kept: readonly string[];
  } | null;
  /** PostToolUse answered with updatedToolOutput. */
  readonly replaced: boolean;
  /** updatedToolOutput came back but its slot could not be found in the recorded text: counted as unchanged. */
  readonly unrenderable: boolean;
  readonly markers: number;
  readonly retrievalFailures: number;
  /** Dollars the saved tokens (before - after) would not have cost; negative when the result grew. */
  readonly savedCost: number;
  /** Requests whose chain carries this result (the first writes it to the cache, the others read it). */
  readonly carriers: number;
  /** What shortened it: the line view's filter, `post:<tool>` for a PostToolUse replacement; null when unchanged. */
  readonly viewKind: string | null;
  /** For a shortened result: words the agent wrote next that only the original held (evidence.ts). */
  readonly evidence: readonly string[];
  /**
   * The retrieval turn a view with evidence is priced as (src/cost/net.ts): the whole original printed again, the
   * prefix of the request that first carried the result re-read from cache, and that request's reply. Zero without
   * evidence.
   */
  readonly turnTokens: number;
  readonly turnCost: number;
}

export interface SessionReplay {
  readonly file: string;
  readonly sessionId: string;
  readonly version: string | null;
  readonly mode: ReplayMode;
  readonly calls: readonly CallReplay[];
  readonly requests: number;
  /** Billed cost of the recorded session, every request at its own model's dated price. */
  readonly billedCost: number;
  /** Requests whose model has no price: left out of billedCost and savedCost. */
  readonly unpricedRequests: number;
}

/** The hook events and tool matchers `syt init` registers: the replay fires exactly those. */
export function registeredMatchers(): { readonly pre: string | undefined; readonly post: string | undefined } {
  const groups = ourGroups({ kind: 'command', wrapperCommand: 'tokenless' });
  // A group without a matcher fires for every tool; no group means the event is not ours.
  const matcherOf = (event: string): string | undefined => (groups[event] === undefined ? undefined : (groups[event].matcher ?? '*'));
  return { pre: matcherOf('PreToolUse'), post: matcherOf('PostToolUse') };
}

/** Claude Code's matcher: empty or `*` matches every tool, plain names (`Bash|Read`) match exactly, else a regex. */
export function matcherMatches(matcher: string | undefined, tool: string): boolean {
  if (matcher === undefined) return false;
  if (matcher === '*' || matcher === '') return true;
  if (/^[A-Za-z0-9_|]+$/.test(matcher)) return matcher.split('|').includes(tool);
  try {
    return new RegExp(`^(?:${matcher})$`).test(tool);
  } catch {
    return false;
  }
}

export async function replaySession(session: RecordedSession, context: ReplayContext): Promise<SessionReplay> {
  const matchers = registeredMatchers();
  const replayed: { call: RecordedCall; result: Omit<CallReplay, Priced> }[] = [];
  const words = new WordIndex(session.timeline);
  for (const call of session.calls) {
    if (call.at !== null) context.setNow?.(call.at);
    replayed.push({ call, result: await replayCall(session, call, context, matchers, words) });
  }
  const firstCarrier = new Map<string, RequestUsage>();
  for (const request of session.requests) for (const uuid of request.chain) if (!firstCarrier.has(uuid)) firstCarrier.set(uuid, request.usage);

  const carriers = new Map<string, ModelPrice[]>(session.calls.map((call) => [call.resultUuid, []]));
  const { cost: billed, unpriced } = pricedTotals(session.requests.map((request) => request.usage));
  for (const request of session.requests) {
    const price = priceFor(request.usage.model);
    if (price !== null) for (const uuid of request.chain) carriers.get(uuid)?.push(price);
  }
  const calls = replayed.map(({ call, result }) => {
    const prices = carriers.get(call.resultUuid) ?? [];
    const saved = result.before - result.after;
    const [first, ...later] = prices;
    const perToken = first === undefined ? 0 : first.cacheWrite5m + later.reduce((sum, price) => sum + price.cacheRead, 0);
    const turn = result.evidence.length === 0 ? null : retrievalTurn(result.before, firstCarrier.get(call.resultUuid), first, perToken);
    return { ...result, savedCost: (saved * perToken) / 1_000_000, carriers: prices.length, turnTokens: turn?.tokens ?? 0, turnCost: turn?.dollars ?? 0 };
  });
  return { file: session.file, sessionId: session.sessionId, version: session.version, mode: context.mode, calls, requests: session.requests.length, billedCost: billed, unpricedRequests: unpriced };
}

type Priced = 'savedCost' | 'carriers' | 'turnTokens' | 'turnCost';

/**
 * One retrieval turn for a view with evidence: the original printed again (priced like the saving: written once,
 * read by every later carrier), the carrying request's prefix re-read from cache and its reply written, by
 * src/cost/net.ts's formula in tokens and at the request's model's price in dollars.
 */
function retrievalTurn(printed: number, usage: RequestUsage | undefined, price: ModelPrice | undefined, perToken: number): { tokens: number; dollars: number } {
  const prefix = usage === undefined ? undefined : usage.input + usage.cacheRead + usage.cacheWrite5m + usage.cacheWrite1h;
  const turn = { printedTokens: printed, prefixTokens: prefix, outputTokens: usage?.output };
  const tokens = Math.round(printed + turnCost(turn));
  const dollars = price === undefined ? 0 : (printed * perToken + (prefix ?? NET_ASSUMPTIONS.prefixTokens) * price.cacheRead + (usage?.output ?? NET_ASSUMPTIONS.outputTokens) * price.output) / 1_000_000;
  return { tokens, dollars };
}

interface Answer {
  readonly updatedInput?: Record<string, unknown>;
  readonly permissionDecision?: string;
  readonly updatedToolOutput?: unknown;
}

async function ask(event: object, context: ReplayContext): Promise<Answer> {
  const outcome = await answerClaudeCodeEvent(event, context.runtime, { wrapperCommand: context.wrapperCommand, env: context.env });
  if ('error' in outcome) throw new Error(`the hook rejected a replayed event: ${outcome.error}`);
  const specific = (outcome.answer as { hookSpecificOutput?: Answer } | null)?.hookSpecificOutput;
  return specific ?? {};
}

async function replayCall(
  session: RecordedSession,
  call: RecordedCall,
  context: ReplayContext,
  matchers: ReturnType<typeof registeredMatchers>,
  words: WordIndex,
): Promise<Omit<CallReplay, Priced>> {
  const before = context.countTokens(call.content);
  const command = typeof call.input['command'] === 'string' ? call.input['command'] : null;
  const base = {
    toolUseId: call.toolUseId,
    tool: call.tool,
    family: call.tool === 'Bash' && command !== null ? commandFamily(command) : null,
    failed: call.isError,
    sidechain: call.sidechain,
    before,
  };
  const untouched = { ...base, ran: true, after: before, rewritten: false, decision: null, line: null, replaced: false, unrenderable: false, markers: 0, retrievalFailures: 0, viewKind: null, evidence: [] };
  if (call.isError && neverRan(call.content)) return { ...untouched, ran: false };
  const common = {
    session_id: call.sessionId || session.sessionId,
    transcript_path: session.file,
    cwd: call.cwd ?? session.projectDir ?? '/',
    permission_mode: PERMISSION_MODE[context.mode],
    tool_name: call.tool,
    tool_use_id: call.toolUseId,
    ...(call.agentId !== null ? { agent_id: call.agentId } : {}),
  };
  const pre = matcherMatches(matchers.pre, call.tool) ? await ask({ ...common, hook_event_name: 'PreToolUse', tool_input: call.input }, context) : {};
  const rewritten = pre.updatedInput !== undefined;
  const input = pre.updatedInput ?? call.input;
  const attribution = { agentId: AGENT_ID, sessionId: common.session_id, toolUseId: call.toolUseId };

  // What the agent sees before PostToolUse, and the tool_response the client would hand PostToolUse.
  let shown = call.content;
  let response: unknown = call.toolUseResult;
  let line: CallReplay['line'] = null;
  const originals: Buffer[] = [];
  if (rewritten && call.tool === 'Bash' && command !== null) {
    const outcome = bashLineView(command, input['command'], call, context, attribution);
    if (outcome.kind === 'view') {
      const { view } = outcome.view;
      originals.push(outcome.capture.stdout, outcome.capture.stderr);
      const stdout = view.stdout.toString('utf8').replace(/\n+$/, '');
      const stderr = view.stderr.toString('utf8').replace(/\n+$/, '');
      shown = (outcome.capture.header ?? '') + renderBash(stdout, stderr);
      if (!call.isError) response = { ...withoutPersisted(call.toolUseResult), stdout, stderr };
      line = { outcome: view.disposition === 'applied' ? 'view' : 'unchanged-view', reason: view.disposition, filter: view.filter, ...outcome.counts, kept: [] };
    } else line = { outcome: 'declined', reason: outcome.reason, filter: null, ...outcome.counts, kept: outcome.kept ?? [] };
  }

  let replaced = false;
  let unrenderable = false;
  // A failed tool fires PostToolUseFailure, whose output cannot be replaced (FINDINGS.md section 4).
  if (!call.isError && matcherMatches(matchers.post, call.tool)) {
    const post = await ask({ ...common, hook_event_name: 'PostToolUse', tool_input: input, tool_response: response }, context);
    if (post.updatedToolOutput !== undefined) {
      const rendered = renderReplacement(call.tool, shown, response, post.updatedToolOutput);
      if (rendered === null) unrenderable = true;
      else {
        replaced = true;
        shown = rendered;
        originals.push(...stringsIn(response).map((text) => Buffer.from(text, 'utf8')));
      }
    }
  }
  const keys = markersIn(shown);
  const retrievalFailures = keys.filter((key) => !retrievesExactly(context.runtime, key, common.session_id, originals)).length;
  const after = shown === call.content ? before : context.countTokens(shown);
  const shortened = after < before && (replaced || line?.outcome === 'view');
  return {
    ...base,
    ran: true,
    after,
    viewKind: !shortened ? null : replaced ? `post:${call.tool}` : (line?.filter ?? 'line'),
    evidence: shortened ? hiddenWordsUsed(session.timeline, words, call.timelineIndex, call.content, shown) : [],
    rewritten,
    decision: pre.permissionDecision ?? null,
    line,
    replaced,
    unrenderable,
    markers: keys.length,
    retrievalFailures,
  };
}

export interface Capture {
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly exitCode: number;
  /** `Exit code N\n`, which the client puts before a failed command's output. */
  readonly header: string | null;
}

function bashLineView(
  command: string,
  updated: unknown,
  call: RecordedCall,
  context: ReplayContext,
  attribution: { agentId: string; sessionId: string; toolUseId: string },
): ({ kind: 'view'; capture: Capture; counts: SegmentCounts } & { view: Extract<LineView, { kind: 'view' }> }) | { kind: 'raw'; reason: string; kept?: readonly string[]; counts: SegmentCounts } {
  const none = { segments: 0, wrapped: 0 };
  const capture = captureOf(call);
  if (typeof capture === 'string') return { kind: 'raw', reason: capture, counts: none };
  const plan = planCommand(command, context.runtime, { wrapperCommand: context.wrapperCommand, ...CLAUDE_CODE_REWRITE }, attributionEnv({ agent_id: attribution.agentId, session_id: attribution.sessionId, tool_use_id: attribution.toolUseId }));
  // The replay must view exactly the line the hook rewrote; a different plan would be a copy of its logic gone stale.
  if (plan.command !== updated) return { kind: 'raw', reason: 'the hook rewrote the line differently from planCommand', counts: none };
  const counts = { segments: plan.segments.length, wrapped: plan.segments.filter((segment) => segment.action === 'wrap').length };
  // Claude Code's Bash output is a file: launch.sh leaves an output under the threshold raw, Node never starts.
  const view = viewLine(context.runtime, command, plan, capture, attribution, { fileMinBytes: DEFAULT_VIEW_MIN_BYTES });
  return view.kind === 'view' ? { kind: 'view', capture, view, counts } : { ...view, counts };
}

interface SegmentCounts {
  readonly segments: number;
  readonly wrapped: number;
}

/**
 * The recorded output as the program printed it. Claude Code trims trailing newlines from each stream (the
 * transcript shows them trimmed), and puts a failed command's streams, merged, after `Exit code N`.
 */
export function captureOf(call: RecordedCall): Capture | string {
  const restore = (text: string): Buffer => Buffer.from(text === '' || text.endsWith('\n') ? text : `${text}\n`, 'utf8');
  if (call.isError) {
    const match = /^Exit code (\d+)\n/.exec(call.content);
    if (match === null) return { stdout: restore(call.content), stderr: Buffer.alloc(0), exitCode: 1, header: null };
    return { stdout: restore(call.content.slice(match[0].length)), stderr: Buffer.alloc(0), exitCode: Number(match[1]), header: match[0] };
  }
  const result = call.toolUseResult;
  if (!isRecord(result) || typeof result['stdout'] !== 'string' || typeof result['stderr'] !== 'string') return 'the recorded result has no stdout/stderr';
  if (result['persistedOutputPath'] !== undefined) return 'the client persisted the output: the transcript holds only part of it';
  if (result['backgroundTaskId'] !== undefined) return 'ran in the background: its output came later';
  return { stdout: restore(result['stdout']), stderr: restore(result['stderr']), exitCode: 0, header: null };
}

function withoutPersisted(result: unknown): Record<string, unknown> {
  if (!isRecord(result)) return {};
  const { persistedOutputPath: _path, persistedOutputSize: _size, ...rest } = result;
  return rest;
}

/** The person rejected the call, or the client cancelled it with a failed sibling: nothing ran, nothing to view. */
function neverRan(content: string): boolean {
  return content.startsWith('<tool_use_error>') || content.startsWith("The user doesn't want to proceed") || content.startsWith('[Request interrupted');
}

function retrievesExactly(runtime: Runtime, key: string, sessionId: string, originals: readonly Buffer[]): boolean {
  const got = retrieveBytes(runtime, markerFor(key), { sessionId, visibleMarkers: [], anySession: false });
  return got.ok && originals.some((original) => original.equals(got.bytes));
}

/** Every string inside a tool response: the slot post_tool shortened is one of them, byte for byte. */
function stringsIn(value: unknown, depth = 0): string[] {
  if (typeof value === 'string') return [value];
  if (depth > 8 || typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap((item: unknown) => stringsIn(item, depth + 1));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
