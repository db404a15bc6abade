/**
 * The hook's own stdin and stdout as file descriptors, not streams: `process.stdin` on a pipe loads node:net and
 * `process.stdout` node:stream, about 15 ms of every hook call on this machine (`node -e` with and without touching
 * them, 25 paired runs), more than everything the hook itself computes for a passthrough. Writes are synchronous, as
 * Node's own stdout is for pipes and files on Linux, so nothing is lost when the process ends.
 */
import { closeSync, constants, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import type { StdinOutcome } from './read-stdin.ts';

/**
 * Reads stdin to its end, up to a byte cap and a deadline (a harness that never closes stdin must not hang the agent),
 * through a non-blocking descriptor, so a read never blocks and nothing is left pending in libuv's pool when the
 * deadline passes. A pipe or a file is reopened through `/proc/self/fd/0` (Linux), so the flags of the fd the harness
 * gave are not changed. null where neither can be done: the caller reads the stream.
 */
export function readStdinFd(capBytes: number, timeoutMs: number): Promise<StdinOutcome> | null {
  const source = process.platform === 'linux' ? (reopenedStdin() ?? socketStdin()) : socketStdin();
  if (source === null) return null;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let wait = 0;
    let poll: NodeJS.Timeout | undefined;
    const finish = (outcome: StdinOutcome): void => {
      clearTimeout(deadline);
      clearTimeout(poll);
      source.release();
      resolve(outcome);
    };
    const deadline = setTimeout(() => finish({ ok: false, reason: 'timeout', detail: `stdin not closed within ${timeoutMs} ms` }), timeoutMs);
    const drain = (): void => {
      const buffer = Buffer.allocUnsafe(64 * 1024);
      for (;;) {
        let bytes: number;
        try {
          bytes = readSync(source.fd, buffer, 0, buffer.length, null);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') {
            finish({ ok: false, reason: 'timeout', detail: `stdin error: ${(error as Error).message}` });
            return;
          }
          // Nothing yet: look again soon, backing off to 10 ms (a harness writes its event at once, so this is rare).
          wait = Math.min(10, wait + 1);
          poll = setTimeout(drain, wait);
          return;
        }
        if (bytes === 0) {
          finish({ ok: true, text: Buffer.concat(chunks, size).toString('utf8') });
          return;
        }
        size += bytes;
        if (size > capBytes) {
          finish({ ok: false, reason: 'too_large', detail: `input exceeds the ${capBytes}-byte cap` });
          return;
        }
        chunks.push(Buffer.from(buffer.subarray(0, bytes)));
        wait = 0;
      }
    };
    drain();
  });
}

type StdinSource = { fd: number; release: () => void };

/** fd 0's pipe or file opened afresh, non-blocking; ENXIO for a socket, which /proc cannot reopen. */
function reopenedStdin(): StdinSource | null {
  try {
    const fd = openSync('/proc/self/fd/0', constants.O_RDONLY | constants.O_NONBLOCK);
    return { fd, release: () => closeSync(fd) };
  } catch {
    return null;
  }
}

type PipeBinding = { Pipe: new (type: number) => { open: (fd: number) => number }; constants: { SOCKET: number } };
/** Held for the life of the process: the handle owns fd 0 once opened, and closing it would close fd 0. */
const heldHandles: unknown[] = [];

/**
 * A socket on fd 0 is what every Node harness gives (child_process stdio 'pipe' is a socketpair: Claude Code, Gemini
 * CLI, Copilot CLI). `process.stdin` would read it, but loading node:net for it costs about 8 ms of every hook call.
 * libuv's own pipe handle, opened on fd 0 and never started, does the one thing needed: it makes the socket
 * non-blocking, exactly as `process.stdin` would, so fd 0 can be read like the pipe above. The binding is internal:
 * anything unexpected (another Node, `--pending-deprecation`, which would print a warning) falls back to the stream.
 */
function socketStdin(): StdinSource | null {
  try {
    if (!fstatSync(0).isSocket() || pendingDeprecation()) return null;
    const binding = (process as unknown as { binding: (name: string) => PipeBinding }).binding('pipe_wrap');
    const handle = new binding.Pipe(binding.constants.SOCKET);
    if (handle.open(0) !== 0) return null;
    heldHandles.push(handle);
    return { fd: 0, release: () => undefined };
  } catch {
    return null;
  }
}

function pendingDeprecation(): boolean {
  return process.execArgv.includes('--pending-deprecation') || (process.env['NODE_OPTIONS'] ?? '').includes('--pending-deprecation') || process.env['NODE_PENDING_DEPRECATION'] === '1';
}

/** All of text to fd 1 or 2; a reader that went away (EPIPE) is not an error of ours, a full non-blocking pipe waits. */
export function writeAllFd(fd: 1 | 2, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset, bytes.length - offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
        continue;
      }
      if (code === 'EPIPE') return;
      throw error;
    }
  }
}
