/**
 * `tokenless run -- <program> [args…]`: runs the real program with the caller's stdin, cwd, environment and open
 * descriptors, then prints the filtered view and exits the way the program did (its code, or the same signal).
 * Output the agent does not read (a file the line redirected to, a terminal, /dev/null) is not touched at all, and a
 * run that goes on past the streaming threshold switches to raw pass-through so progress is never held back.
 */
import { spawn, type StdioOptions } from 'node:child_process';
import { constants } from 'node:os';
import { isTruthyFlag } from '../src/config/flags.ts';
import { SESSION_ENV, sessionFromEnv } from '../src/harness/registry.ts';
import { resolveWrapperValues } from '../src/permissions/shell-state.ts';
import { projectOf } from '../src/store/project.ts';
import type { RunAttribution } from '../src/runtime/run-view.ts';
import { inheritedFds, launchArgv, planStdio, type StdioPlan } from '../src/runtime/run-stdio.ts';
import { coreDumpsPossible, fdFact, findTaskOutput, onPath, openFdFacts, setprivPath } from './run-fds.ts';
import type { FdFact } from '../src/runtime/run-stdio.ts';

/** After this long without finishing, buffered output is flushed and the rest streams raw. */
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

export async function runCommand(args: readonly string[]): Promise<void> {
  if (args[0] === '--help' || args[0] === '-h') {
    process.stdout.write(USAGE);
    return;
  }
  const viewAs = args[0] === '--view-as' ? args[1] : undefined;
  const rest = viewAs === undefined ? args : args.slice(2);
  const argv = rest[0] === '--' ? rest.slice(1) : [...rest];
  const program = argv[0];
  if (program === undefined || viewAs === '') {
    process.stderr.write(`tokenless: ${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const env = process.env;
  // A person at a terminal sees the raw output; one line says why, and never on a pipe or in a log.
  if (process.stdout.isTTY === true && process.stderr.isTTY === true && !isTruthyFlag(env['TOKENLESS_DISABLED'])) {
    process.stderr.write(`tokenless run: a terminal gets the output unfiltered; to see the agent's view, pipe it: tokenless run -- ${argv.join(' ')} | cat\n`);
  }
  const sessionIds = SESSION_ENV.map((name) => env[name] ?? '');
  const named = (fact: FdFact | null): FdFact | null =>
    fact?.kind === 'file' && fact.link === null ? { ...fact, link: findTaskOutput(fact, sessionIds, env) } : fact;
  const plan: StdioPlan = isTruthyFlag(env['TOKENLESS_DISABLED'])
    ? { mode: 'passthrough', reason: 'TOKENLESS_DISABLED' }
    : planStdio(named(fdFact(1)), named(fdFact(2)), sessionIds);
  finish(await execute(argv, viewArgv(argv, viewAs), plan, streamAfterMs(env)));
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

/** fds 0–2 as the plan says, every descriptor from 3 up that the line gave us at its own number. */
function stdioFor(plan: StdioPlan, passed: readonly number[]): StdioOptions {
  const stdio: (number | 'pipe' | 'ignore')[] =
    plan.mode === 'passthrough' ? [0, 1, 2]
    : plan.merged ? [0, 'pipe', 'ignore']
    : [0, 'pipe', plan.stderr === 'capture' ? 'pipe' : 2];
  for (const fd of passed) {
    while (stdio.length < fd) stdio.push('ignore');
    stdio[fd] = fd;
  }
  return stdio;
}

function execute(argv: readonly string[], viewed: readonly string[], initialPlan: StdioPlan, streamAfter: number): Promise<Outcome> {
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
      const [file = '', ...rest] = launchArgv(argv, { merged, setpriv });
      const child = spawn(file, rest, { stdio: stdioFor(plan, passed), env: childEnv(process.env) });
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
      const timer = streaming ? null : setTimeout(startStreaming, streamAfter);
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
      child.stdout?.on('data', collect(stdout, process.stdout));
      child.stderr?.on('data', collect(stderr, process.stderr));
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
      child.on('error', (error: NodeJS.ErrnoException) => {
        cleanUp();
        if (plan.mode === 'capture' && RESOURCE_ERRORS.has(error.code ?? '')) {
          // No pipes to spare: run the program as typed rather than not at all.
          start({ mode: 'passthrough', reason: error.code ?? 'spawn failed' });
          return;
        }
        // Mirrors the shell: 127 when the program is missing, 126 when it cannot be executed.
        process.stderr.write(`${argv[0]}: ${error.code === 'ENOENT' ? 'command not found' : error.message}\n`);
        resolve({ code: error.code === 'ENOENT' ? 127 : 126, signal: null });
      });
      child.on('close', (code, signal) => {
        if (settled) return;
        cleanUp();
        if (signal !== null) {
          startStreaming();
          resolve({ code: 128 + (constants.signals[signal] ?? 0), signal });
          return;
        }
        const exitCode = code ?? 0;
        if (streaming) resolve({ code: exitCode, signal: null });
        else void writeView(viewed, Buffer.concat(stdout), Buffer.concat(stderr), exitCode).then(() => resolve({ code: exitCode, signal: null }));
      });
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

/** The attribution variables pre_tool added for us are not passed on: the program sees the environment it had. */
export const ATTRIBUTION_VARS: readonly string[] = ['TOKENLESS_AGENT_ID', 'TOKENLESS_SESSION_ID', 'TOKENLESS_TOOL_USE_ID'];
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

/** Prints the filtered view; the engine is loaded only when there is output to filter. */
async function writeView(argv: readonly string[], stdout: Buffer, stderr: Buffer, exitCode: number): Promise<void> {
  let view = { stdout, stderr };
  if (stdout.byteLength + stderr.byteLength > 0) {
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
        view = viewRun(runtime, { argv, stdout, stderr, exitCode }, attributionFromEnv(process.env));
      } finally {
        runtime.close();
      }
    } catch (error) {
      // A filter or store failure falls back to the raw output: the command's result is never lost.
      process.stderr.write(`tokenless: filter failed, raw output shown (${error instanceof Error ? error.message : String(error)})\n`);
    }
  }
  process.stdout.write(view.stdout);
  process.stderr.write(view.stderr);
}

export function attributionFromEnv(env: NodeJS.ProcessEnv): RunAttribution {
  return {
    agentId: env['TOKENLESS_AGENT_ID'] ?? 'cli',
    sessionId: sessionFromEnv(env) ?? 'cli',
    toolUseId: env['TOKENLESS_TOOL_USE_ID'],
    project: projectOf(process.cwd(), env),
  };
}
