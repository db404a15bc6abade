/**
 * The filtered view of one command's captured output, shared by `tokenless run` and `tokenless filter` so both
 * print the same thing. Command filters, the content policy and the generic fallback all propose candidates
 * (a lossy stream is stashed raw, byte-exact, and its view ends with a retrieval line); one arbitration picks and
 * one commit stashes and records, as for post_tool.
 */
import { routeContent } from '../compress/policy.ts';
import { asCommandFilter, matchesContent } from '../filters/file/filter.ts';
import { findFilter, genericFilter } from '../filters/registry.ts';
import type { CommandOutput } from '../filters/types.ts';
import type { Recoverability } from '../reduce/candidate.ts';
import type { ReduceContext } from '../reduce/context.ts';
import { onStdout, type StreamCandidate } from '../reduce/stream.ts';
import { dropsProse } from '../compress/prose.ts';
import { exactUtf8 } from '../store/marker.ts';
import { limitsItsInput } from './agent-limited.ts';
import { arbitrate, type Adopted } from './arbitrate.ts';
import { commit } from './commit.ts';
import { rememberArgvView } from './loop-breaker.ts';
import type { Runtime } from './runtime.ts';

export interface CapturedRun {
  readonly argv: readonly string[];
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly exitCode: number;
}

export interface RunAttribution {
  readonly agentId: string;
  readonly sessionId: string;
  readonly toolUseId?: string | undefined;
  /** Where the command ran (projectOf): a view kind switched to lossless there gets lossless views only. */
  readonly project?: string | undefined;
}

export interface RunView {
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly filter: string | null;
  readonly recoverability: Recoverability;
  readonly stashKeys: readonly string[];
  readonly disposition: string;
}

export function viewRun(runtime: Runtime, run: CapturedRun, attribution: RunAttribution): RunView {
  const raw = (reason: string): RunView => ({
    stdout: run.stdout,
    stderr: run.stderr,
    filter: null,
    recoverability: 'lossless',
    stashKeys: [],
    disposition: reason,
  });
  if (runtime.config.disabled) return raw('passthrough');
  if (limitsItsInput(run.argv)) return raw('agent_limited');
  // Binary output (not valid UTF-8) is passed through untouched.
  const stdout = exactUtf8(run.stdout);
  const stderr = exactUtf8(run.stderr);
  if (stdout === null || stderr === null) return raw('passthrough');
  const original = stdout + stderr;
  // Read on the first lossy candidate only: the switch lives in stats.db, which a run with nothing to shorten never opens.
  let known: ReadonlySet<string> | undefined;
  const switchedKinds = (): ReadonlySet<string> => (known ??= attribution.project === undefined ? NONE : runtime.stats.losslessKinds(attribution.project));
  // Lossy views only where the kind is not switched to lossless here, and never one that cuts prose from JSON records.
  const allowed = (candidate: StreamCandidate): boolean =>
    candidate.recoverability === 'lossless' || (!switchedKinds().has(candidate.filter) && !dropsProse(stdout, candidate.stdout));
  const adopted = firstAdopted(original, proposers({ argv: run.argv, stdout, stderr, exitCode: run.exitCode }, runtime), allowed);
  if (adopted === null) return raw('no_savings');
  const { candidate } = adopted;
  const committed = commit(runtime, original, adopted, {
    lifecycle: 'run',
    agentId: attribution.agentId,
    sessionId: attribution.sessionId,
    toolUseId: attribution.toolUseId,
    toolName: run.argv.slice(0, 2).join(' '),
    origin: 'command_output',
    contentType: candidate.filter,
    project: attribution.project,
  });
  if (committed.disposition !== 'applied') return raw(committed.disposition);
  rememberArgvView(runtime, run.argv, {
    sessionId: attribution.sessionId,
    key: committed.stashKeys[0],
    kind: candidate.filter,
    project: attribution.project,
    tokens: adopted.beforeTokens,
  });
  return {
    stdout: Buffer.from(candidate.stdout, 'utf8'),
    stderr: Buffer.from(candidate.stderr, 'utf8'),
    filter: candidate.filter,
    recoverability: candidate.recoverability,
    stashKeys: committed.stashKeys,
    disposition: 'applied',
  };
}

/**
 * Who proposes candidates, in order; each is asked only when every one before it proposed nothing arbitration
 * adopts. The matched filter first. When it declines (jq, curl and the file reads always do), the output goes
 * through the one content policy post_tool uses, so a read of a source file stays exact and a log, lockfile or JSON
 * document gets its content view. A filter file whose `content` pattern recognises the output comes between. Only commands no filter knows (offline `tokenless filter`, the demo) fall back to
 * the generic folding after that.
 */
function proposers(output: CommandOutput, runtime: Runtime): (() => readonly StreamCandidate[])[] {
  const context: ReduceContext = runtime.config;
  const filter = findFilter(output.argv, runtime.fileFilters);
  const one = (candidate: StreamCandidate | null): StreamCandidate[] => (candidate === null ? [] : [candidate]);
  return [
    () => one(filter?.apply(output, context) ?? null),
    // A filter file that recognises the output itself, whatever the command was called.
    () => fileContentCandidates(output, runtime),
    () => contentCandidates(output, context),
    () => (filter === null ? one(genericFilter.apply(output, context)) : []),
  ];
}

function fileContentCandidates(output: CommandOutput, runtime: Runtime): StreamCandidate[] {
  const candidates: StreamCandidate[] = [];
  for (const filter of runtime.fileFilters) {
    if (!matchesContent(filter, output)) continue;
    const candidate = asCommandFilter(filter).apply(output, runtime.config);
    if (candidate !== null) candidates.push(candidate);
  }
  return candidates;
}

/** The content policy's candidates for stdout (stderr is shown as is). */
function contentCandidates(output: CommandOutput, context: ReduceContext): StreamCandidate[] {
  if (output.stdout === '') return [];
  const routed = routeContent(output.stdout, { origin: 'command_output', toolName: 'Bash', commands: [output.argv] }, context);
  return routed.candidates.map((candidate) => onStdout(candidate, output));
}

const NONE: ReadonlySet<string> = new Set();

function firstAdopted(
  original: string,
  proposed: readonly (() => readonly StreamCandidate[])[],
  allowed: (candidate: StreamCandidate) => boolean,
): Adopted<StreamCandidate> | null {
  for (const propose of proposed) {
    const adopted = arbitrate(original, propose().filter(allowed));
    if (adopted !== null) return adopted;
  }
  return null;
}
