/**
 * `tokenless run -- <program> [args…]`: runs the real program with the caller's stdin, cwd, environment and open
 * descriptors, then prints the filtered view and exits the way the program did (its code, or the same signal).
 * Rewritten commands reach it through dist/launch.sh, which runs the program itself when stdout is a regular file
 * (Claude Code's task output file) and calls back `run --view-file` only when the output is big enough for a view
 * (commands/shared/run-file-view.ts). Here: stdout a pipe or socket, where the program gets a pipe of its own (never a
 * socket), the wrapper returns when the program exits (not when the last holder of the pipe closes it), and output is
 * held for a view only for the first PIPE_HOLD_MS: a run still going then flushes what it has and streams the rest
 * raw as it arrives, so a reader of the pipe (a background task's poll) never waits long for a line, and a SIGKILL of
 * the group after the hold loses nothing the program wrote.
 * Output the agent does not read (a file the line redirected to, a terminal, /dev/null) is not touched at all.
 */
import { spawn, type StdioOptions } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { constants } from 'node:os';
import type { Readable } from 'node:stream';
import { isTruthyFlag } from '../src/config/flags.ts';
import { DEFAULT_VIEW_MIN_BYTES } from '../src/config/view-threshold.ts';
import { SESSION_ENV, sessionFromEnv } from '../src/harness/registry.ts';
import { resolveWrapperValues } from '../src/permissions/shell-state.ts';
import { isSingleExecutable } from '../src/shell/wrapper-command.ts';
import { projectOf } from '../src/store/project.ts';
import type { RunAttribution } from '../src/runtime/run-view.ts';
import { inheritedFds, launchArgv, planStdio, signalOfStatus, type StdioPlan } from '../src/runtime/run-stdio.ts';
import { coreDumpsPossible, fdFact, findTaskOutput, onPath, openFdFacts, setprivPath } from './shared/run-fds.ts';
import { replaceWithView } from './shared/run-file-view.ts';
import { drainPipe, openRunPipe, pipeReader, relayRest, type RunPipe } from './shared/run-pipe.ts';
import type { FdFact } from '../src/runtime/run-stdio.ts';
import { CALLER_HOLD_VAR, pipeHoldMs } from '../src/runtime/run-hold.ts';

/**
 * A run into Claude Code's task file longer than this keeps its raw output (it may have been read while it ran): the
 * output was already in the file as written, so this bounds only when a view may replace it.
 */
const DEFAULT_STREAM_AFTER_MS = 20_000;
/** Output past this size is streamed raw: nothing that large is worth holding in memory for a view. */
const MAX_BUFFER_BYTES = 32 * 1024 * 1024;
/**
 * Signals that flush what is buffered (the wrapper may be killed next). SIGINT and SIGQUIT come from a terminal or a
 * group kill and reach the program directly, so they are never passed on; SIGTERM and SIGHUP are passed on only if
 * the program is still running after FORWARD_GRACE_MS, since a group kill (`timeout`, an agent's interrupt) has
 * already delivered them and a second copy would turn a graceful stop into a forced one.
 */
const FLUSH_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const;
const FORWARDED_SIGNALS: ReadonlySet<NodeJS.Signals> = new Set(['SIGTERM', 'SIGHUP']);
const FORWARD_GRACE_MS = 500;
/** Their default action writes a core file: re-raising one must not add the wrapper's core to the program's. */
const CORE_SIGNALS: ReadonlySet<string> = new Set(['SIGQUIT', 'SIGILL', 'SIGTRAP', 'SIGABRT', 'SIGBUS', 'SIGFPE', 'SIGSEGV', 'SIGXCPU', 'SIGXFSZ', 'SIGSYS']);
/** Spawn failures that are about the wrapper's resources, not the program: retried with no pipes at all. */
const RESOURCE_ERRORS: ReadonlySet<string> = new Set(['EMFILE', 'ENFILE', 'EAGAIN', 'ENOMEM']);

const USAGE =
  'usage: tokenless run [--view-as "<program> <args>"] -- <program> [args…]\n  Runs the program with your stdin, cwd and environment, prints a compact view of its output\n  (the full output stays retrievable by the marker it prints) and exits with its exit code.\n  --view-as: view the output with the filter of another command (the producer of a pipeline\n  whose last stage only selects lines, `npm test 2>&1 | tail -50`).\n  TOKENLESS_DISABLED=1, or output the agent does not read (a terminal, a file): plain pass-through.\n';

type Outcome = { readonly code: number; readonly signal: null } | { readonly code: number; readonly signal: NodeJS.Signals };

interface RunArgs {
  readonly viewAs: string | undefined;
  /** `--view-file START --exit STATUS`: the launcher ran the program; view what it appended to fd 1 after START. */
  readonly viewFile: { readonly start: number; readonly status: number } | undefined;
  readonly argv: readonly string[];
}

/** The first word before `--` that looks like an option and is none of ours (`--view-as`, and the launcher's own
 * `--view-file`/`--exit` pairs), or null. */
function unknownOption(args: readonly string[]): string | null {
  for (let index = 0; index < args.length && args[index] !== '--'; index += 2) {
    const name = args[index] ?? '';
    if (name === '--view-as' || name === '--view-file' || name === '--exit') continue;
    return name.startsWith('-') ? name : null;
  }
  return null;
}

function parseArgs(args: readonly string[]): RunArgs | null {
  let viewAs: string | undefined;
  let start: number | undefined;
  let status: number | undefined;
  let index = 0;
  for (; index < args.length && args[index] !== '--'; index += 2) {
    const [name, value] = [args[index], args[index + 1]];
    if (value === undefined) return null;
    if (name === '--view-as') viewAs = value;
    else if (name === '--view-file') start = Number(value);
    else if (name === '--exit') status = Number(value);
    else break;
  }
  const argv = args[index] === '--' ? args.slice(index + 1) : args.slice(index);
  if (argv[0] === undefined || viewAs === '') return null;
  if ((start === undefined) !== (status === undefined)) return null;
  if (start === undefined || status === undefined) return { viewAs, viewFile: undefined, argv };
  if (!Number.isSafeInteger(start) || !Number.isInteger(status) || status < 0 || status > 255) return null;
  return { viewAs, viewFile: { start, status }, argv };
}

export async function runCommand(args: readonly string[]): Promise<void> {
  if (args[0] === '--help' || args[0] === '-h') {
    process.stdout.write(USAGE);
    return;
  }
  const unknown = unknownOption(args);
  if (unknown !== null) {
    // Before `--`, only our own options: an unknown one would otherwise be run as the program (`run --bogus -- ls`).
    process.stderr.write(`tokenless run: unknown option '${unknown}' (allowed before --: --view-as "<program> <args>", --help)\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const parsed = parseArgs(args);
  if (parsed === null) {
    process.stderr.write(`tokenless: ${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const { argv, viewAs } = parsed;
  const env = process.env;
  const sessionIds = SESSION_ENV.map((name) => env[name] ?? '');
  if (parsed.viewFile !== undefined) {
    const { start, status } = parsed.viewFile;
    try {
      await replaceWithView({
        start,
        minBytes: viewMinBytes(env),
        streamAfterMs: streamAfterMs(env),
        sessionIds,
        env,
        view: async (region) => {
          const view = await viewOf(viewArgv(argv, viewAs), region, Buffer.alloc(0), status);
          return view.applied ? Buffer.concat([view.stdout, view.stderr]) : null;
        },
      });
    } catch {
      // The raw output stays in the file.
    }
    const signal = signalOfStatus(status, constants.signals);
    finish(signal === null ? { code: status, signal: null } : { code: status, signal });
    return;
  }
  const named = (fact: FdFact | null): FdFact | null =>
    fact?.kind === 'file' && fact.link === null ? { ...fact, link: findTaskOutput(fact, sessionIds, env) } : fact;
  const plan: StdioPlan = isTruthyFlag(env['TOKENLESS_DISABLED'])
    ? { mode: 'passthrough', reason: 'TOKENLESS_DISABLED' }
    : planStdio(named(fdFact(1)), named(fdFact(2)), sessionIds);
  finish(await execute(argv, viewArgv(argv, viewAs), plan, pipeHoldMs(env)));
}

/** The argv whose filter views the output: --view-as's words, else the program behind `timeout`/`nice`/`env`. */
function viewArgv(argv: readonly string[], viewAs: string | undefined): readonly string[] {
  if (viewAs !== undefined) return viewAs.split(' ').filter((word) => word !== '');
  const resolved = resolveWrapperValues(argv);
  return resolved.ok ? argv.slice(resolved.programIndex) : argv;
}

function streamAfterMs(env: NodeJS.ProcessEnv): number {
  const value = Number.parseInt(env['TOKENLESS_RUN_STREAM_AFTER_MS'] ?? '', 10);
  return Number.isFinite(value) && value >= 0 ? value : DEFAULT_STREAM_AFTER_MS;
}

function viewMinBytes(env: NodeJS.ProcessEnv): number {
  const value = Number.parseInt(env['TOKENLESS_RUN_VIEW_MIN_BYTES'] ?? '', 10);
  return Number.isFinite(value) && value >= 0 ? value : DEFAULT_VIEW_MIN_BYTES;
}

/** The program's ends of its output pipes: a FIFO each where one can be made, else Node's own pipe (a socket). */
interface OutputPipes {
  readonly stdout: RunPipe | null;
  readonly stderr: RunPipe | null;
}

function openPipes(plan: StdioPlan): OutputPipes {
  if (plan.mode === 'passthrough') return { stdout: null, stderr: null };
  const stdout = openRunPipe();
  const stderr = !plan.merged && plan.stderr === 'capture' ? openRunPipe() : null;
  return { stdout, stderr };
}

/** fds 0–2 as the plan says, every descriptor from 3 up that the line gave us at its own number. */
function stdioFor(plan: StdioPlan, pipes: OutputPipes, passed: readonly number[]): StdioOptions {
  const stdio: (number | 'pipe' | 'ignore')[] =
    plan.mode === 'passthrough' ? [0, 1, 2]
    : plan.merged ? [0, pipes.stdout?.write ?? 'pipe', 'ignore']
    : [0, pipes.stdout?.write ?? 'pipe', plan.stderr === 'capture' ? (pipes.stderr?.write ?? 'pipe') : 2];
  for (const fd of passed) {
    while (stdio.length < fd) stdio.push('ignore');
    stdio[fd] = fd;
  }
  return stdio;
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

/**
 * Once the program has them, the wrapper lets go of what it only passed on: its stdin (a pipe's read end held here
 * would keep the writer from getting SIGPIPE when the program stops reading: `make | head -1`), the descriptors from
 * 3 up, and the write ends of the program's pipes (else their end of file would wait for us). Fd 0 is reopened on
 * /dev/null so no later open lands there.
 */
function releasePassed(passed: readonly number[], pipes: OutputPipes): void {
  closeWriteEnds(pipes);
  for (const fd of passed) closeQuietly(fd);
  closeQuietly(0);
  try {
    openSync('/dev/null', 'r');
  } catch {
    // fd 0 stays free
  }
}

function closeWriteEnds(pipes: OutputPipes): void {
  for (const pipe of [pipes.stdout, pipes.stderr]) if (pipe !== null) closeQuietly(pipe.write);
}

interface Reader {
  readonly socket: Readable;
  readonly pipe: RunPipe | null;
  readonly take: (chunk: Buffer) => void;
}

/**
 * Everything the program wrote is in its pipes once it has exited: take what is there without waiting for end of
 * file, which a background grandchild holding the pipe would put off for as long as it lives. `relay` (called once
 * the view is out) hands such a pipe to a relay, so what the grandchild writes later reaches our stdout as it would
 * have raw. A single executable cannot start a plain Node relay: there `rest` waits for end of file instead, as a
 * reader of the raw line's pipe would.
 */
function drainReaders(readers: readonly Reader[]): { readonly rest: Promise<void>; readonly relay: () => void } {
  const pending: Reader[] = [];
  for (const reader of readers) {
    if (reader.pipe === null) continue;
    const { chunks, eof } = drainPipe(reader.socket, reader.pipe.read);
    for (const chunk of chunks) reader.take(chunk);
    if (!eof) pending.push(reader);
  }
  const relayable = !isSingleExecutable();
  const rest = relayable
    ? Promise.resolve()
    : Promise.all(pending.map((reader) => new Promise<void>((done) => {
        reader.socket.once('end', done).once('error', done).once('close', done);
        reader.socket.resume();
      }))).then(() => undefined);
  return {
    rest,
    relay: () => {
      if (relayable) for (const reader of pending) if (reader.pipe !== null) relayRest(reader.pipe.read, process.env);
      for (const reader of readers) if (reader.pipe !== null) reader.socket.destroy();
    },
  };
}

function execute(argv: readonly string[], viewed: readonly string[], initialPlan: StdioPlan, holdMs: number): Promise<Outcome> {
  const passed = inheritedFds(openFdFacts());
  const setpriv = setprivPath();
  if (setpriv !== null && !onPath(argv[0] ?? '', process.env['PATH'])) {
    // Mirrors the shell: 127 and "command not found".
    process.stderr.write(`${argv[0]}: command not found\n`);
    return Promise.resolve({ code: 127, signal: null });
  }
  return new Promise((settle) => {
    let settled = false;
    const resolve = (outcome: Outcome): void => {
      if (!settled) settle(outcome);
      settled = true;
    };
    const start = (plan: StdioPlan): void => {
      const merged = plan.mode === 'capture' && plan.merged;
      const pipes = openPipes(plan);
      const [file = '', ...rest] = launchArgv(argv, { merged, setpriv });
      const child = spawn(file, rest, { stdio: stdioFor(plan, pipes, passed), env: childEnv(process.env) });
      if (child.pid !== undefined) releasePassed(passed, pipes);
      else closeWriteEnds(pipes);
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      let buffered = 0;
      let streaming = plan.mode === 'passthrough';
      const startStreaming = (): void => {
        if (streaming) return;
        streaming = true;
        process.stdout.write(Buffer.concat(stdout));
        process.stderr.write(Buffer.concat(stderr));
      };
      const timer = streaming ? null : setTimeout(startStreaming, holdMs);
      timer?.unref();
      const collect = (target: Buffer[], sink: NodeJS.WriteStream) => (chunk: Buffer) => {
        if (streaming) {
          sink.write(chunk);
          return;
        }
        target.push(chunk);
        buffered += chunk.byteLength;
        if (buffered > MAX_BUFFER_BYTES) startStreaming();
      };
      const readers: Reader[] = [];
      const read = (socket: Readable | null, pipe: RunPipe | null, take: (chunk: Buffer) => void): void => {
        if (socket === null) return;
        socket.on('data', take);
        socket.on('error', () => undefined);
        readers.push({ socket, pipe, take });
      };
      read(pipes.stdout === null ? child.stdout : pipeReader(pipes.stdout), pipes.stdout, collect(stdout, process.stdout));
      read(pipes.stderr === null ? child.stderr : pipeReader(pipes.stderr), pipes.stderr, collect(stderr, process.stderr));
      const forwardTimers: NodeJS.Timeout[] = [];
      const onSignal = (signal: NodeJS.Signals) => () => {
        startStreaming();
        if (!FORWARDED_SIGNALS.has(signal)) return;
        const forward = setTimeout(() => child.exitCode === null && child.signalCode === null && child.kill(signal), FORWARD_GRACE_MS);
        forwardTimers.push(forward);
      };
      const handlers = FLUSH_SIGNALS.map((signal) => [signal, onSignal(signal)] as const);
      for (const [signal, handler] of handlers) process.on(signal, handler);
      const cleanUp = (): void => {
        if (timer !== null) clearTimeout(timer);
        for (const forward of forwardTimers) clearTimeout(forward);
        for (const [name, handler] of handlers) process.off(name, handler);
      };
      const done = (code: number | null, signal: NodeJS.Signals | null): void => {
        if (settled) return;
        cleanUp();
        const { rest, relay } = drainReaders(readers);
        void rest.then(async () => {
          if (signal !== null) {
            startStreaming();
            relay();
            resolve({ code: 128 + (constants.signals[signal] ?? 0), signal });
            return;
          }
          const exitCode = code ?? 0;
          if (!streaming) await writeView(viewed, Buffer.concat(stdout), Buffer.concat(stderr), exitCode);
          relay();
          resolve({ code: exitCode, signal: null });
        });
      };
      child.on('error', (error: NodeJS.ErrnoException) => {
        cleanUp();
        for (const reader of readers) reader.socket.destroy();
        if (plan.mode === 'capture' && RESOURCE_ERRORS.has(error.code ?? '')) {
          // No pipes to spare: run the program as typed rather than not at all.
          start({ mode: 'passthrough', reason: error.code ?? 'spawn failed' });
          return;
        }
        // Mirrors the shell: 127 when the program is missing, 126 when it cannot be executed.
        process.stderr.write(`${argv[0]}: ${error.code === 'ENOENT' ? 'command not found' : error.message}\n`);
        resolve({ code: error.code === 'ENOENT' ? 127 : 126, signal: null });
      });
      // With our own pipes (or none) the program's exit is the end; with Node's (no FIFO could be made), end of file.
      if (pipes.stdout !== null || plan.mode === 'passthrough') child.on('exit', done);
      else child.on('close', done);
    };
    start(initialPlan);
  });
}

/**
 * Ends the way the program did. A death by signal is re-raised on the wrapper (default action restored first), so
 * the shell sees a signal and prints its usual notice ("Killed", "Segmentation fault"); a core-dumping signal is only
 * re-raised when the core limit is 0, so the wrapper never writes a core file of its own (then: exit 128+N).
 */
function finish(outcome: Outcome): void {
  process.exitCode = outcome.code;
  const { signal } = outcome;
  if (signal === null || (CORE_SIGNALS.has(signal) && coreDumpsPossible())) return;
  // Output already written is flushed: stdout and stderr writes to files and pipes are synchronous on POSIX.
  process.removeAllListeners(signal);
  // Adding and removing a listener restores the default action, also for signals Node ignores (SIGPIPE) or uses.
  if (signal !== 'SIGKILL' && signal !== 'SIGSTOP') {
    const noop = (): void => undefined;
    process.on(signal, noop);
    process.off(signal, noop);
  }
  process.kill(process.pid, signal);
}

/** The attribution variables (and the per-call hold) pre_tool added for us are not passed on: the program sees the environment it had. */
export const ATTRIBUTION_VARS: readonly string[] = ['TOKENLESS_AGENT_ID', 'TOKENLESS_SESSION_ID', 'TOKENLESS_TOOL_USE_ID', CALLER_HOLD_VAR];
/** dist/launch.sh moves Node's own variables aside under this prefix so they act on the program only. */
export const SAVED_PREFIX = 'TOKENLESS_RUN_SAVED_';

export function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of ATTRIBUTION_VARS) delete copy[name];
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(SAVED_PREFIX)) continue;
    delete copy[name];
    copy[name.slice(SAVED_PREFIX.length)] = value;
  }
  return copy;
}

/** Prints the filtered view. */
async function writeView(argv: readonly string[], stdout: Buffer, stderr: Buffer, exitCode: number): Promise<void> {
  const view = await viewOf(argv, stdout, stderr, exitCode);
  process.stdout.write(view.stdout);
  process.stderr.write(view.stderr);
}

interface ViewOutcome {
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  /** False when this is the raw output. */
  readonly applied: boolean;
}

/** The filtered view, or the raw output; the engine is loaded only when there is output to filter. */
async function viewOf(argv: readonly string[], stdout: Buffer, stderr: Buffer, exitCode: number): Promise<ViewOutcome> {
  if (stdout.byteLength + stderr.byteLength === 0) return { stdout, stderr, applied: false };
  try {
    const [{ loadConfig }, { Runtime }, { viewRun }, { activeFileFilters }] = await Promise.all([
      import('../src/config/config.ts'),
      import('../src/runtime/runtime.ts'),
      import('../src/runtime/run-view.ts'),
      import('../src/filters/file/active.ts'),
    ]);
    const config = loadConfig();
    const runtime = new Runtime(config, Date.now, { fileFilters: await activeFileFilters(process.env, process.cwd(), config.dataDir) });
    try {
      const view = viewRun(runtime, { argv, stdout, stderr, exitCode }, attributionFromEnv(process.env));
      return { stdout: view.stdout, stderr: view.stderr, applied: view.disposition === 'applied' };
    } finally {
      runtime.close();
    }
  } catch (error) {
    // A filter or store failure falls back to the raw output: the command's result is never lost.
    process.stderr.write(`tokenless: filter failed, raw output shown (${error instanceof Error ? error.message : String(error)})\n`);
    return { stdout, stderr, applied: false };
  }
}

export function attributionFromEnv(env: NodeJS.ProcessEnv): RunAttribution {
  return {
    agentId: env['TOKENLESS_AGENT_ID'] ?? 'cli',
    sessionId: sessionFromEnv(env) ?? 'cli',
    toolUseId: env['TOKENLESS_TOOL_USE_ID'],
    project: projectOf(process.cwd(), env),
  };
}
