/**
 * `tokenless hook <lifecycle>`: the hot path. Reads one JSON document from stdin (capped, with a deadline), answers
 * in the dialect it came in, and never loads Ink, the tokenizer tables or commander.
 */
import { loadConfig } from '../src/config/config.ts';
import type { Lifecycle } from '../src/protocol/schemas.ts';
import { LIFECYCLES } from '../src/protocol/names.ts';
import { Runtime } from '../src/runtime/runtime.ts';
import { nestsDeeperThan, tooDeep } from '../src/protocol/depth.ts';
import { loadHarness } from '../src/harness/load.ts';
import { harnessForEvent } from '../src/harness/registry.ts';
import { failed, malformed, ok, silent, type HookOutcome } from './outcome.ts';
import { readStdin, STDIN_CAP_BYTES, STDIN_TIMEOUT_MS, type StdinOutcome } from './read-stdin.ts';
import { readStdinFd, writeAllFd } from './stdio.ts';
import { wrapperCommand } from '../src/shell/wrapper-command.ts';
import { telemetryOn } from '../src/telemetry/status.ts';

/** Not a lifecycle: Claude Code's session events (UserPromptSubmit, SessionStart, PreCompact; SessionEnd for telemetry). */
const SESSION_HOOK = 'session';

/** What the call was, for the hook-call log: the harness whose event it was (`native` for our own envelope). */
export interface HookCallSeen {
  harness?: string;
  /** The last engine call's disposition (applied, or why it declined). */
  disposition?: string;
  /** The data dir the call's configuration named, once it was loaded. */
  dataDir?: string;
}

/** stdin: a stream (tests), or the CLI's own, read without a stream where it can be (hooks/stdio.ts). */
export async function runHook(lifecycleArg: string | undefined, stdin?: NodeJS.ReadableStream, seen: HookCallSeen = {}): Promise<HookOutcome> {
  const readInput = (): Promise<StdinOutcome> => (stdin === undefined ? (readStdinFd(STDIN_CAP_BYTES, STDIN_TIMEOUT_MS) ?? readStdin(process.stdin)) : readStdin(stdin));
  if (lifecycleArg === SESSION_HOOK) {
    const input = await readInput();
    if (!input.ok) return silent(`passthrough: ${input.detail}`);
    return (await import('./session.ts')).handleSessionHook(input.text, seen);
  }
  if (!isLifecycle(lifecycleArg)) {
    return malformed(`usage: tokenless hook <${LIFECYCLES.join('|')}|${SESSION_HOOK}> (got ${lifecycleArg ?? 'nothing'})`);
  }
  const input = await readInput();
  if (!input.ok) return silent(`passthrough: ${input.detail}`);
  let raw: unknown;
  try {
    raw = JSON.parse(input.text);
  } catch (error) {
    return malformed(`stdin is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return malformed('stdin must be one JSON object');
  const entry = harnessForEvent(raw as Record<string, unknown>);
  seen.harness = entry?.name ?? 'native';
  // Bounded before zod or any recursive walk sees it; a harness event exits 1 (non-blocking), like any malformed one.
  if (nestsDeeperThan(raw)) return entry !== null ? failed(tooDeep()) : malformed(tooDeep());
  const config = loadConfig();
  seen.dataDir = config.dataDir;
  // Only pre_tool decides what to wrap by filter files; the folders are two existsSync calls when absent.
  const fileFilters = lifecycleArg === 'pre_tool' ? await (await import('../src/filters/file/active.ts')).activeFileFilters(process.env, process.cwd(), config.dataDir) : [];
  const runtime = new Runtime(config, Date.now, { fileFilters });
  try {
    if (entry === null) return await (await import('./native.ts')).handleNative(lifecycleArg, raw, runtime, wrapperCommand());
    // A malformed harness event exits 1: exit 2 would block the tool in Claude Code and Gemini CLI alike, while 1
    // lets it run unchanged with the reason on stderr.
    const harness = await loadHarness(entry);
    const outcome = await harness.answer(lifecycleArg, raw as Record<string, unknown>, runtime, { wrapperCommand: wrapperCommand(), env: process.env });
    if ('error' in outcome) return failed(outcome.error);
    return outcome.answer === null ? silent(outcome.note) : ok(outcome.answer);
  } finally {
    seen.disposition = runtime.lastDisposition;
    runtime.close();
  }
}

function isLifecycle(value: string | undefined): value is Lifecycle {
  return value !== undefined && (LIFECYCLES as readonly string[]).includes(value);
}

/** CLI entry: writes the outcome (synchronously, to the file descriptors) and sets the exit code (never process.exit). */
export async function hookCommand(args: readonly string[]): Promise<void> {
  const seen: HookCallSeen = {};
  const outcome = await runHook(args[0], undefined, seen);
  if (outcome.stdout !== '') writeAllFd(1, outcome.stdout);
  if (outcome.stderr !== '') writeAllFd(2, outcome.stderr);
  process.exitCode = outcome.exitCode;
  // After the answer is written, so the agent never waits on it; one appended line, and only while telemetry is on.
  if (telemetryOn(process.env)) await logHookCall(args[0] ?? '', seen, outcome);
}

async function logHookCall(lifecycle: string, seen: HookCallSeen, outcome: HookOutcome): Promise<void> {
  const [{ hookCallLine, hookCallOutcome }, { appendHookCall }] = await Promise.all([import('../src/telemetry/hook-calls.ts'), import('../src/store/hook-calls-log.ts')]);
  // process.uptime(), not performance.now(): the `performance` global loads perf_hooks on first use (~2 ms).
  const call = { ts: Date.now(), harness: seen.harness ?? 'other', lifecycle, ms: process.uptime() * 1000, outcome: hookCallOutcome(outcome.exitCode, outcome.stdout), disposition: seen.disposition ?? null };
  appendHookCall(seen.dataDir ?? loadConfig().dataDir, hookCallLine(call));
}
