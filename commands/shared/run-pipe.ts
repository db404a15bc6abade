/**
 * The pipe `tokenless run` gives the program when the agent reads a pipe or a socket. Node's own `stdio: 'pipe'` is
 * a UNIX socket (BENCHMARKS/MEASUREMENTS: async writes to it are dropped at exit, /dev/stdout cannot be opened, end
 * of file waits for every holder), so the program gets a real FIFO instead: the kind of file a shell pipe is.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunPipe {
  /** The end the program writes to (blocking, as a shell pipe's is); closed here once the program has it. */
  readonly write: number;
  /** Our end, non-blocking. */
  readonly read: number;
}

const MKFIFO = ['/usr/bin/mkfifo', '/bin/mkfifo'].find((path) => existsSync(path)) ?? null;

/** A FIFO with both ends open and no name left on disk; null when none can be made (the caller uses Node's pipe). */
export function openRunPipe(): RunPipe | null {
  if (MKFIFO === null) return null;
  let dir: string | null = null;
  try {
    dir = mkdtempSync(join(tmpdir(), 'tokenless-run-'));
    const path = join(dir, 'out');
    if (spawnSync(MKFIFO, ['-m', '600', path], { stdio: 'ignore' }).status !== 0) return null;
    // The read end first and non-blocking, so opening the write end does not wait for a reader.
    const read = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      return { read, write: openSync(path, constants.O_WRONLY) };
    } catch {
      closeSync(read);
      return null;
    }
  } catch {
    return null;
  } finally {
    if (dir !== null) rmSync(dir, { recursive: true, force: true });
  }
}

/** A stream over our end, for reading while the program runs. */
export function pipeReader(pipe: RunPipe): Socket {
  return new Socket({ fd: pipe.read, readable: true, writable: false });
}

/**
 * What is in the pipe now, without waiting: called once the program has exited, when everything it wrote is in the
 * pipe. `eof` is false when someone still holds the write end (a background grandchild).
 */
export function drainPipe(socket: Readable, fd: number): { readonly chunks: Buffer[]; readonly eof: boolean } {
  socket.pause();
  const chunks: Buffer[] = [];
  for (let chunk = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null) chunks.push(chunk);
  const buffer = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let count: number;
    try {
      count = readSync(fd, buffer, 0, buffer.byteLength, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return { chunks, eof: false };
      return { chunks, eof: true };
    }
    if (count === 0) return { chunks, eof: true };
    chunks.push(Buffer.from(buffer.subarray(0, count)));
  }
}

/**
 * Hands our end to a relay that copies what the grandchildren still write to our own stdout, so that output reaches
 * where the raw line would have sent it while the wrapper returns now, as the program did. The relay stays in our
 * process group, so a group kill reaches it as it would have reached the grandchild's reader.
 */
export function relayRest(fd: number, env: NodeJS.ProcessEnv): void {
  const relay = spawn(process.execPath, ['-e', 'process.stdin.pipe(process.stdout)'], { stdio: [fd, 1, 2], env });
  relay.on('error', () => undefined);
  relay.unref();
}
