/**
 * Every recorded shell call's output through the view `tokenless run` prints, as if the line had been wrapped: the
 * measure of the views themselves, apart from which lines the permissions let pre_tool rewrite. The program is the
 * line's only printing command when it has one (`cd X && cargo test` is `cargo test`); any other line (a pipeline,
 * `a; b`, a script) gets no name, and only the output's content can choose its view. Streams come from the record
 * as the program printed them (`captureOf`); a record without them is viewed as the text the agent saw.
 */
import { commandsOf } from '../compress/command-source.ts';
import { findFilter } from '../filters/registry.ts';
import { retrieveBytes } from '../runtime/retrieve.ts';
import { tooLittleForView } from '../runtime/run-stdio.ts';
import { viewRun } from '../runtime/run-view.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { markerFor } from '../store/marker.ts';
import { commandFamily, type Family } from './families.ts';

export interface ShellCallRecord {
  readonly id: string;
  readonly line: string;
  /** What the agent saw (the before). */
  readonly shown: string;
  /** The streams as the program printed them, when the record has them; else the shown text is viewed whole. */
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly exitCode: number;
  /** Text the client puts before the output (`Exit code 1`), kept in the after. */
  readonly header: string;
}

/** How the view was chosen: by the command's name, by the output's content (a recogniser), by the content policy. */
export type ViewChoice = 'name' | 'content' | 'content policy' | 'raw';

export interface ShellCallView {
  readonly id: string;
  readonly family: Family;
  readonly failed: boolean;
  readonly before: number;
  readonly after: number;
  readonly filter: string | null;
  readonly choice: ViewChoice;
  readonly retrievedExactly: boolean;
}

const SILENT_SETUP = new Set(['cd', 'pushd', 'popd', 'export', 'source', '.', 'set', 'unset', 'true', ':']);

/** The argv the line's output is viewed as: its one printing command, else a name no filter knows. */
export function viewedArgv(line: string): readonly string[] {
  const printing = commandsOf(line).filter((argv) => !SILENT_SETUP.has(argv[0] ?? ''));
  return printing.length === 1 && printing[0] !== undefined ? printing[0] : ['sh', '-c', line];
}

/**
 * `fileMinBytes`: the output went to a regular file (a Claude Code Bash call), where commands/launch.sh shows an
 * output under this many bytes raw without starting Node; null for a client that reads a pipe (Codex), where
 * `tokenless run` views any size.
 */
export function viewShellCall(runtime: Runtime, call: ShellCallRecord, sessionId: string, countTokens: (text: string) => number, fileMinBytes: number | null): ShellCallView {
  const argv = viewedArgv(call.line);
  const before = countTokens(call.shown);
  const common = { id: call.id, family: commandFamily(call.line), failed: call.exitCode !== 0, before };
  if (fileMinBytes !== null && tooLittleForView(call.stdout.byteLength + call.stderr.byteLength, fileMinBytes)) {
    return { ...common, after: before, filter: null, choice: 'raw', retrievedExactly: true };
  }
  const view = viewRun(runtime, { argv, stdout: call.stdout, stderr: call.stderr, exitCode: call.exitCode }, { agentId: 'replay', sessionId, toolUseId: call.id });
  const shown = view.filter === null ? call.shown : call.header + view.stdout.toString('utf8') + view.stderr.toString('utf8');
  const named = findFilter(argv, runtime.fileFilters);
  const choice: ViewChoice =
    view.filter === null ? 'raw' : view.filter.startsWith('content:') || view.filter === 'generic' ? 'content policy' : named !== null && named.name === view.filter ? 'name' : 'content';
  const retrievedExactly = view.stashKeys.every((key) => {
    const got = retrieveBytes(runtime, markerFor(key), { sessionId, visibleMarkers: [], anySession: true });
    return got.ok && (Buffer.from(got.bytes).equals(call.stdout) || Buffer.from(got.bytes).equals(call.stderr));
  });
  return {
    ...common,
    after: countTokens(shown),
    filter: view.filter,
    choice,
    retrievedExactly,
  };
}
