/**
 * How `tokenless run` connects the program it runs, decided from what the wrapper's own descriptors are. Pure: the
 * facts come from commands/shared/run-fds.ts. The rule is that the program must see the descriptors the line gave the
 * wrapper, except that output the agent reads goes through us so we can shorten it.
 */
import { basename, dirname } from 'node:path';

/** One of the wrapper's open descriptors, as fstat and /proc/self/fd show it. */
export interface FdFact {
  readonly fd: number;
  readonly kind: 'pipe' | 'socket' | 'file' | 'char' | 'other';
  readonly dev: number;
  readonly ino: number;
  /** readlink of /proc/self/fd/N: a path, or `pipe:[ino]`, `anon_inode:[eventfd]`…; null when unknown. */
  readonly link: string | null;
  /** O_ACCMODE from /proc/self/fdinfo/N (0 read, 1 write, 2 both); null when unknown. */
  readonly access: number | null;
  /** FD_CLOEXEC from /proc/self/fdinfo/N; null when unknown. */
  readonly cloexec: boolean | null;
}

export type StdioPlan =
  | { readonly mode: 'passthrough'; readonly reason: string }
  /** `merged`: fds 1 and 2 are one output, the program gets one pipe for both and the view sees one stream. */
  | { readonly mode: 'capture'; readonly merged: boolean; readonly stderr: 'capture' | 'inherit' };

/**
 * Whether the agent reads this output. Claude Code (2.1.332, measured: FINDINGS.md) gives a Bash command the same
 * append-only regular file on fds 1 and 2, `…/<session id>/tasks/<task id>.output`; other agents and test harnesses
 * read a pipe or a socket. Anything else (a file the line redirected to, a terminal, /dev/null) is not ours to shorten.
 */
export function agentReads(fact: FdFact | null, sessionIds: readonly string[]): boolean {
  if (fact === null) return false;
  if (fact.kind === 'pipe' || fact.kind === 'socket') return true;
  if (fact.kind !== 'file' || fact.link === null) return false;
  return isAgentTaskOutput(fact.link, sessionIds);
}

export function isAgentTaskOutput(path: string, sessionIds: readonly string[]): boolean {
  const tasks = dirname(path);
  return (
    path.endsWith('.output') &&
    basename(tasks) === 'tasks' &&
    sessionIds.some((id) => id !== '' && basename(dirname(tasks)) === id)
  );
}

function sameOutput(a: FdFact, b: FdFact): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.kind === b.kind;
}

export function planStdio(stdout: FdFact | null, stderr: FdFact | null, sessionIds: readonly string[]): StdioPlan {
  if (!agentReads(stdout, sessionIds) || stdout === null) return { mode: 'passthrough', reason: 'stdout is not read by the agent' };
  if (stderr !== null && sameOutput(stdout, stderr)) return { mode: 'capture', merged: true, stderr: 'capture' };
  return { mode: 'capture', merged: false, stderr: agentReads(stderr, sessionIds) ? 'capture' : 'inherit' };
}

/** Descriptors Node itself opens and the program must not get. */
const NODE_INTERNAL = /^anon_inode:/;
/** Node 20 sets close-on-exec on fds 0–16 at start-up (strace: `fcntl(N, F_SETFD, FD_CLOEXEC)` for N = 0…16). */
const NODE_MARKS_CLOEXEC_UP_TO = 16;

/**
 * The descriptors from 3 up that the line handed the wrapper, to hand on to the program at the same numbers. Above
 * fd 16 the close-on-exec flag tells: everything Node opens has it, what the shell handed on does not. Up to 16 Node
 * has set the flag on the inherited ones too, so there its own are told by kind: event machinery (anon inodes) and
 * pipe pairs whose both ends it holds.
 */
export function inheritedFds(facts: readonly FdFact[]): number[] {
  const ends = new Map<string, Set<number>>();
  for (const fact of facts) {
    if (fact.fd < 3 || fact.link === null || !fact.link.startsWith('pipe:')) continue;
    const set = ends.get(fact.link) ?? new Set<number>();
    if (fact.access !== null) set.add(fact.access);
    ends.set(fact.link, set);
  }
  return facts
    .filter((fact) => {
      if (fact.fd < 3 || fact.link === null || NODE_INTERNAL.test(fact.link)) return false;
      if (fact.fd > NODE_MARKS_CLOEXEC_UP_TO) return fact.cloexec === false;
      const pipe = ends.get(fact.link);
      return !(pipe !== undefined && pipe.has(0) && pipe.has(1));
    })
    .map((fact) => fact.fd)
    .sort((a, b) => a - b);
}

/** Above this, an open descriptor is not handed on (the stdio array would be as long as the number). */
export const MAX_PASSED_FD = 4095;

/**
 * The program's command: as typed, behind `setpriv --pdeathsig KILL` (so it dies with the wrapper even when the
 * wrapper is SIGKILLed) and, for merged output, behind `sh -c 'exec "$@" 2>&1'` (Node cannot hand one pipe to two
 * descriptors). Both exec in place: the program keeps the pid, arguments, environment and descriptors.
 */
export function launchArgv(argv: readonly string[], options: { readonly merged: boolean; readonly setpriv: string | null }): string[] {
  const merged = options.merged ? ['/bin/sh', '-c', 'exec "$@" 2>&1', 'sh', ...argv] : [...argv];
  return options.setpriv === null ? merged : [options.setpriv, '--pdeathsig', 'KILL', '--', ...merged];
}

/**
 * The signal a shell status names (128 + N), or null. A shell reports a program killed by signal N and one that
 * exited with 128 + N alike; the launcher can only see the status, so both are treated as the death by signal.
 */
export function signalOfStatus(status: number, signals: Readonly<Record<string, number>>): NodeJS.Signals | null {
  if (!Number.isInteger(status) || status <= 128) return null;
  const found = Object.entries(signals).find(([, number]) => number === status - 128);
  return found === undefined ? null : (found[0] as NodeJS.Signals);
}

/** What the launcher measured of a run that wrote straight into the agent's output file. */
export interface FileRun {
  /** The file's size before the program started. */
  readonly start: number;
  /** Its size now. */
  readonly size: number;
  /** How long the run has been going (the launcher's process start to now). */
  readonly elapsedMs: number | null;
}

/** Why the launcher left an output raw when `tooLittleForView` says so. */
export const TOO_LITTLE_FOR_VIEW = 'too little output for a view';

/**
 * The launcher's fast path starts Node only past `minBytes` appended (never for nothing): below it the output stays
 * raw. The session replay asks the same question of a Claude Code Bash output, whose fds 1 and 2 are that file.
 */
export function tooLittleForView(appended: number, minBytes: number): boolean {
  return appended < Math.max(1, minBytes);
}

/**
 * Whether the bytes the program appended may be replaced by a view: enough of them to pay for one, and a run short
 * enough that nobody has been reading the file along the way (a background task's output is read while it runs;
 * what was read must stay what is there). Null when they may, else why not.
 */
export function fileRunRefusal(run: FileRun, limits: { readonly minBytes: number; readonly streamAfterMs: number }): string | null {
  if (!Number.isSafeInteger(run.start) || run.start < 0 || run.start > run.size) return 'the file shrank during the run';
  if (tooLittleForView(run.size - run.start, limits.minBytes)) return TOO_LITTLE_FOR_VIEW;
  if (run.elapsedMs === null || run.elapsedMs > limits.streamAfterMs) return 'a long run: its output was streamed as written';
  return null;
}
