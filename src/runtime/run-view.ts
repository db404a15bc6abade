/**
 * The filtered view of one command's captured output, shared by `tokenless run` and `tokenless filter` so both
 * print the same thing. A lossy stream is stashed raw (byte-exact) and its view ends with a retrieval marker.
 */
import { routeContent } from '../compress/policy.ts';
import { findFilter, genericFilter } from '../filters/registry.ts';
import type { CommandFilter, FilterView } from '../filters/types.ts';
import { exactUtf8, retrievalLine } from '../store/marker.ts';
import { limitsItsInput } from './agent-limited.ts';
import { arbitrate } from './arbitrate.ts';
import { anchorToOriginal, elide, lossless, retrievable, type Candidate, type Recoverability, type StashEntry } from '../reduce/candidate.ts';
import { commit } from './commit.ts';
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
  const built = buildCandidate(run, stdout, stderr);
  if (built === null) return raw('no_savings');
  const adopted = arbitrate(original, [built.candidate]);
  if (adopted === null) return raw('no_savings');
  const committed = commit(runtime, original, adopted, {
    lifecycle: 'run',
    agentId: attribution.agentId,
    sessionId: attribution.sessionId,
    toolUseId: attribution.toolUseId,
    toolName: run.argv.slice(0, 2).join(' '),
    origin: 'command_output',
    contentType: built.filter,
  });
  if (committed.disposition !== 'applied') return raw(committed.disposition);
  return {
    stdout: Buffer.from(built.stdout, 'utf8'),
    stderr: Buffer.from(built.stderr, 'utf8'),
    filter: built.filter,
    recoverability: adopted.candidate.recoverability,
    stashKeys: committed.stashKeys,
    disposition: 'applied',
  };
}

interface BuiltCandidate {
  readonly candidate: Candidate;
  readonly stdout: string;
  readonly stderr: string;
  readonly filter: string;
}

/**
 * A matched filter decides first. When it declines (returns null: jq, curl and the file reads always do), the output
 * goes through the one content policy post_tool uses, so a read of a source file stays exact and a log, lockfile or
 * JSON document gets its content view. Only commands no filter knows (offline `tokenless filter`, the demo) fall
 * back to the generic folding after that.
 */
function buildCandidate(run: CapturedRun, stdout: string, stderr: string): BuiltCandidate | null {
  const filter: CommandFilter | null = findFilter(run.argv);
  const output = { argv: run.argv, stdout, stderr, exitCode: run.exitCode };
  const view = filter?.apply(output) ?? contentView(run.argv, stdout, stderr) ?? (filter === null ? genericFilter.apply(output) : null);
  return view === null ? null : fromView(view, run);
}

/** The content policy's best view of stdout (stderr is shown as is), as a filter view. */
function contentView(argv: readonly string[], stdout: string, stderr: string): FilterView | null {
  if (stdout === '') return null;
  const routed = routeContent(stdout, { origin: 'command_output', toolName: 'Bash', commands: [argv] }, { searchPathSharing: true });
  const adopted = arbitrate(stdout, routed.candidates);
  if (adopted === null) return null;
  const { candidate } = adopted;
  const filter = `content:${candidate.operations.join('+')}`;
  if (candidate.recoverability === 'lossless') return { filter, stdout: { text: candidate.output, lossy: false }, stderr: { text: stderr, lossy: false } };
  // Elided pieces are re-pointed at the raw stdout, which fromView stashes under the same content key.
  return { filter, stdout: { text: anchorToOriginal(candidate, stdout).output, lossy: true }, stderr: { text: stderr, lossy: false } };
}

function fromView(view: FilterView, run: CapturedRun): BuiltCandidate {
  const stash: StashEntry[] = [];
  // The line's position says which stream it stands for: it ends that stream's view.
  const finish = (text: string, lossy: boolean, rawBytes: Buffer): string => {
    if (!lossy) return text;
    const { entry, marker } = elide(rawBytes);
    stash.push(entry);
    // A content view already names the whole stream (anchorToOriginal): a second retrieval line would cost twice.
    if (text.includes(marker)) return text;
    const separator = text === '' || text.endsWith('\n') ? '' : '\n';
    return text + separator + retrievalLine(entry.key);
  };
  const stdout = finish(view.stdout.text, view.stdout.lossy, run.stdout);
  const stderr = finish(view.stderr.text, view.stderr.lossy, run.stderr);
  const operations = [view.filter];
  const candidate: Candidate =
    stash.length > 0 ? retrievable(stdout + stderr, operations, stash) : lossless(stdout + stderr, operations);
  return { candidate, stdout, stderr, filter: view.filter };
}
