/**
 * `tokenless run --view-file START --exit STATUS -- <program>…`: the second half of the launcher's fast path. The
 * program has already run and appended its output straight to fd 1, a regular file; if that file is the agent's
 * and the run qualifies, the appended region is stashed, cut off, and the view written in its place. Every failure
 * leaves the raw bytes where they are.
 */
import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { agentReads, fileRunRefusal, type FdFact } from '../../src/runtime/run-stdio.ts';
import { fdFact, findTaskOutput } from './run-fds.ts';

/** Linux's USER_HZ, the unit of /proc/<pid>/stat's start time. */
const CLOCK_TICKS_PER_SECOND = 100;

export interface FileViewRequest {
  readonly start: number;
  readonly minBytes: number;
  readonly streamAfterMs: number;
  readonly sessionIds: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** Computes the view of the region; null when there is none to show (raw stays). */
  readonly view: (region: Buffer) => Promise<Buffer | null>;
}

export async function replaceWithView(request: FileViewRequest): Promise<void> {
  const fact = named(fdFact(1), request.sessionIds, request.env);
  if (fact?.kind !== 'file' || !agentReads(fact, request.sessionIds)) return;
  const size = fstatSync(1).size;
  if (fileRunRefusal({ start: request.start, size, elapsedMs: elapsedMs() }, request) !== null) return;
  const region = readRegion(fact, request.start, size);
  if (region === null) return;
  const view = await request.view(region);
  if (view === null) return;
  // Someone still writing (a background grandchild): what they added would be cut off with the region.
  if (fstatSync(1).size !== size) return;
  ftruncateSync(1, request.start);
  try {
    writeAll(view);
  } catch {
    // The original is stashed, but the file must still hold it.
    try {
      ftruncateSync(1, request.start);
      writeAll(region);
    } catch {
      // Nothing left to try; the stash has it and the view's marker, if written, retrieves it.
    }
  }
}

function named(fact: FdFact | null, sessionIds: readonly string[], env: NodeJS.ProcessEnv): FdFact | null {
  return fact?.kind === 'file' && fact.link === null ? { ...fact, link: findTaskOutput(fact, sessionIds, env) } : fact;
}

/** The bytes from `start` to `size`, read through a descriptor of our own (fd 1 is write-only). */
function readRegion(fact: FdFact, start: number, size: number): Buffer | null {
  const path = existsSync('/proc/self/fd/1') ? '/proc/self/fd/1' : fact.link;
  if (path === null) return null;
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const region = Buffer.alloc(size - start);
    let offset = 0;
    while (offset < region.byteLength) {
      const count = readSync(fd, region, offset, region.byteLength - offset, start + offset);
      if (count === 0) return null;
      offset += count;
    }
    return region;
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

function writeAll(bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.byteLength) offset += writeSync(1, bytes, offset, bytes.byteLength - offset);
}

/** How long this process (the launcher, which exec'd us) has existed; null without /proc. */
function elapsedMs(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'latin1');
    // Fields after the parenthesised command name; the start time is field 22 overall, the 20th after it.
    const startTicks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const uptime = Number(readFileSync('/proc/uptime', 'latin1').split(' ')[0]);
    if (!Number.isFinite(startTicks) || !Number.isFinite(uptime)) return null;
    return Math.max(0, uptime * 1000 - (startTicks * 1000) / CLOCK_TICKS_PER_SECOND);
  } catch {
    return null;
  }
}
