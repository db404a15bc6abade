/**
 * `tokenless run -- <program> [args…]`: runs the real program with the caller's stdin, cwd and environment, then
 * prints the filtered view and exits with the program's own code (128 + signal when it was killed).
 * A run that goes on past the streaming threshold switches to raw pass-through so progress is never held back.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { isTruthyFlag } from '../src/config/flags.ts';
import { resolveWrapperValues } from '../src/rewrite/rules.ts';
import type { RunAttribution } from '../src/runtime/run-view.ts';

/** After this long without finishing, buffered output is flushed and the rest streams raw. */
const DEFAULT_STREAM_AFTER_MS = 20_000;
/** Output past this size is streamed raw: nothing that large is worth holding in memory for a view. */
const MAX_BUFFER_BYTES = 32 * 1024 * 1024;
const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const;

const USAGE =
  'usage: tokenless run [--view-as "<program> <args>"] -- <program> [args…]\n  Runs the program with your stdin, cwd and environment, prints a compact view of its output\n  (the full output stays retrievable by the marker it prints) and exits with its exit code.\n  --view-as: view the output with the filter of another command (the producer of a pipeline\n  whose last stage only selects lines, `npm test 2>&1 | tail -50`).\n  TOKENLESS_DISABLED=1 or a terminal on stdout: plain pass-through.\n';

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
  const passthrough = isTruthyFlag(env['TOKENLESS_DISABLED']) || process.stdout.isTTY === true;
  // A person at a terminal sees the raw output; one line says why, and never on a pipe or in a log.
  if (process.stdout.isTTY === true && process.stderr.isTTY === true && !isTruthyFlag(env['TOKENLESS_DISABLED'])) {
    process.stderr.write(`tokenless run: a terminal gets the output unfiltered; to see the agent's view, pipe it: tokenless run -- ${argv.join(' ')} | cat\n`);
  }
  process.exitCode = await execute(program, argv, viewArgv(argv, viewAs), passthrough, streamAfterMs(env));
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

function execute(program: string, argv: readonly string[], viewed: readonly string[], passthrough: boolean, streamAfter: number): Promise<number> {
  return new Promise((settle) => {
    let settled = false;
    const resolve = (code: number): void => {
      if (!settled) settle(code);
      settled = true;
    };
    const child = spawn(program, argv.slice(1), { stdio: passthrough ? 'inherit' : ['inherit', 'pipe', 'pipe'], env: childEnv(process.env) });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let buffered = 0;
    let streaming = passthrough;
    const startStreaming = (): void => {
      if (streaming) return;
      streaming = true;
      process.stdout.write(Buffer.concat(stdout));
      process.stderr.write(Buffer.concat(stderr));
    };
    const timer = passthrough ? null : setTimeout(startStreaming, streamAfter);
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
    const forward = (signal: NodeJS.Signals) => () => {
      child.kill(signal);
    };
    const handlers = FORWARDED_SIGNALS.map((signal) => [signal, forward(signal)] as const);
    for (const [signal, handler] of handlers) process.on(signal, handler);
    child.on('error', (error: NodeJS.ErrnoException) => {
      // Mirrors the shell: 127 when the program is missing, 126 when it cannot be executed.
      process.stderr.write(`${program}: ${error.code === 'ENOENT' ? 'command not found' : error.message}\n`);
      resolve(error.code === 'ENOENT' ? 127 : 126);
    });
    child.on('close', (code, signal) => {
      if (settled) return;
      if (timer !== null) clearTimeout(timer);
      for (const [name, handler] of handlers) process.off(name, handler);
      const exitCode = signal !== null ? 128 + (constants.signals[signal] ?? 0) : (code ?? 0);
      if (streaming) resolve(exitCode);
      else if (signal !== null) {
        startStreaming();
        resolve(exitCode);
      } else void writeView(viewed, Buffer.concat(stdout), Buffer.concat(stderr), exitCode).then(() => resolve(exitCode));
    });
  });
}

/** The attribution variables pre_tool added for us are not passed on: the program sees the environment it had. */
const ATTRIBUTION_VARS = ['TOKENLESS_AGENT_ID', 'TOKENLESS_SESSION_ID', 'TOKENLESS_TOOL_USE_ID'];

function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of ATTRIBUTION_VARS) delete copy[name];
  return copy;
}

/** Prints the filtered view; the engine is loaded only when there is output to filter. */
async function writeView(argv: readonly string[], stdout: Buffer, stderr: Buffer, exitCode: number): Promise<void> {
  let view = { stdout, stderr };
  if (stdout.byteLength + stderr.byteLength > 0) {
    try {
      const [{ loadConfig }, { Runtime }, { viewRun }] = await Promise.all([
        import('../src/config/config.ts'),
        import('../src/runtime/runtime.ts'),
        import('../src/runtime/run-view.ts'),
      ]);
      const runtime = new Runtime(loadConfig());
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
    sessionId: env['TOKENLESS_SESSION_ID'] ?? env['CLAUDE_CODE_SESSION_ID'] ?? 'cli',
    toolUseId: env['TOKENLESS_TOOL_USE_ID'],
  };
}
