/**
 * The offline twin of a rewritten command line: given the line as typed, its rewrite plan and the output the whole
 * line printed, what the agent would have seen had the rewritten line run instead. `tokenless run` only ever views
 * the output of the one segment it wraps, so the captured output can be handed to that segment's filter only when
 * every other segment printed nothing the agent sees (`cd X && cmd`, `find … | head`). When two segments may have
 * printed, their output cannot be apportioned: the line view declines and the output stays raw.
 */
import type { RewritePlan, RewriteSegment } from '../rewrite/index.ts';
import { parseShell } from '../shell/parse.ts';
import type { Command, List } from '../shell/types.ts';
import { literalValue } from '../shell/word.ts';
import { attributionEnv, planCommand } from './pre-tool.ts';
import { CLAUDE_CODE_REWRITE } from './wrap-policy.ts';
import { TOO_LITTLE_FOR_VIEW, tooLittleForView } from './run-stdio.ts';
import { viewRun, type RunAttribution, type RunView } from './run-view.ts';
import type { Runtime } from './runtime.ts';

export interface LineCapture {
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  /** The line's exit status; it is the wrapped segment's whenever that segment ran last. */
  readonly exitCode: number;
}

export type LineView =
  | { readonly kind: 'view'; readonly view: RunView; readonly segment: RewriteSegment }
  | {
      readonly kind: 'raw';
      readonly reason: string;
      /** Why each printing segment the line left unwrapped stays as typed (its plan reason); empty when none. */
      readonly kept?: readonly string[];
    };

/**
 * Programs that print nothing on stdout when they succeed (with the arguments checked in `isSilent`). Anything not
 * listed may print, and then the line's output cannot be given to one filter.
 */
const SILENT = new Set([
  'cd', 'export', 'unset', 'shopt', 'setopt', 'unsetopt', 'true', 'false', ':', 'test', '[', 'sleep', 'mkdir', 'touch',
  'rm', 'cp', 'mv', 'ln', 'chmod', 'chown', 'rmdir', 'umask', 'set', 'alias', 'trap',
]);
const LISTS_WHEN_BARE = new Set(['set', 'alias', 'trap', 'export', 'umask', 'shopt', 'setopt', 'unsetopt']);
/** `-v`, `-av`, `--verbose`: the file utilities then print what they did. */
const VERBOSE = /^(-[a-zA-Z]*v[a-zA-Z]*|--verbose)$/;

export interface LineViewOptions {
  /**
   * The output goes to a regular file (Claude Code's task output file, fds 1 and 2): commands/launch.sh then starts
   * Node only when the wrapped program appended at least this many bytes (DEFAULT_VIEW_MIN_BYTES), so a smaller
   * output is shown raw, nothing stashed. Absent: a pipe, where `tokenless run` views any size.
   */
  readonly fileMinBytes?: number;
}

export function viewLine(runtime: Runtime, line: string, plan: RewritePlan, capture: LineCapture, attribution: RunAttribution, options: LineViewOptions = {}): LineView {
  const raw = (reason: string): LineView => ({ kind: 'raw', reason });
  if (plan.command === null) return raw(`not rewritten: ${plan.reason}`);
  const parsed = parseShell(line);
  if (parsed.kind !== 'parsed') return raw('the line does not parse');
  const printing = printingCommands(parsed.script.list);
  const wrapped = plan.segments.filter((segment) => segment.action === 'wrap');
  const printers = printing.filter((command) => !wrapped.some((segment) => segment.start === command.start && segment.end === command.end));
  const shown = wrapped.filter((segment) => printing.some((command) => command.start === segment.start && command.end === segment.end));
  if (printers.length > 0) {
    const kept = printers.map((command) => plan.segments.find((segment) => segment.start === command.start && segment.end === command.end)?.reason ?? 'not a top-level command');
    return { kind: 'raw', reason: `an unwrapped command may print too, its output cannot be told apart: ${describe(line, printers)}`, kept };
  }
  if (shown.length === 0) return raw('no wrapped segment prints to the agent');
  if (shown.length > 1) return raw(`several wrapped segments print, their output cannot be apportioned: ${describe(line, shown)}`);
  const segment = shown[0];
  if (segment === undefined || segment.viewArgv === undefined || segment.viewArgv.length === 0) return raw('the wrapped segment names no filter argv');
  if (options.fileMinBytes !== undefined && tooLittleForView(capture.stdout.byteLength + capture.stderr.byteLength, options.fileMinBytes)) return raw(TOO_LITTLE_FOR_VIEW);
  const view = viewRun(runtime, { argv: segment.viewArgv, stdout: capture.stdout, stderr: capture.stderr, exitCode: capture.exitCode }, attribution);
  return { kind: 'view', view, segment };
}

export interface FilteredLine {
  /** What the whole line would have shown: the wrapped segment's view, or the captured output unchanged. */
  readonly view: RunView;
  /** Why the output is unchanged (not rewritten, or not apportionable), or null when a view applied. */
  readonly declined: string | null;
}

/**
 * `tokenless filter`: plans the line exactly as pre_tool would (same config, same exclusions) and views its captured
 * output through the line view. A line pre_tool would leave as typed prints its output unchanged.
 */
export function filterLine(runtime: Runtime, line: string, capture: LineCapture, attribution: RunAttribution, wrapperCommand: string): FilteredLine {
  const plan = planCommand(line, runtime, { wrapperCommand, ...CLAUDE_CODE_REWRITE }, attributionEnv({ agent_id: attribution.agentId, session_id: attribution.sessionId, tool_use_id: attribution.toolUseId }));
  const viewed = viewLine(runtime, line, plan, capture, attribution);
  if (viewed.kind === 'view') return { view: viewed.view, declined: null };
  return {
    view: { stdout: capture.stdout, stderr: capture.stderr, filter: null, recoverability: 'lossless', stashKeys: [], disposition: 'passthrough' },
    declined: viewed.reason,
  };
}

interface Span {
  readonly start: number;
  readonly end: number;
}

/** Top-level commands whose stdout may reach the agent: the last stage of each pipeline, unless it is known silent. */
function printingCommands(list: List): Span[] {
  const out: Span[] = [];
  for (const chain of list.items) {
    for (const pipeline of chain.pipelines) {
      const last = pipeline.commands.at(-1);
      if (last !== undefined && !isSilent(last)) out.push({ start: last.start, end: last.end });
    }
  }
  return out;
}

function isSilent(command: Command): boolean {
  if (command.kind === 'arithmetic' || command.kind === 'test') return true;
  if (command.kind !== 'simple') return false;
  if (command.words.length === 0) return true;
  if (command.redirects.some((redirect) => stdoutAway(redirect.fd, redirect.op, literalValue(redirect.target.text)))) return true;
  const [program, ...args] = command.words.map((word) => literalValue(word.text));
  // `git add PATHS` prints nothing when it succeeds, so `git add … && git commit …` is the commit's output.
  if (program === 'git' && args[0] === 'add') return !args.some((arg) => arg === null || /^(-[a-zA-Z]*[vnpi][a-zA-Z]*|--verbose|--dry-run|--patch|--interactive)$/.test(arg));
  if (program === null || program === undefined || !SILENT.has(program)) return false;
  // `cd -` prints the directory it went to.
  if (program === 'cd') return !args.includes('-');
  // Alone (or with -p) these list the current settings.
  if (LISTS_WHEN_BARE.has(program)) return args.length > 0 && !args.includes('-p');
  return !args.some((arg) => arg !== null && VERBOSE.test(arg));
}

/** A redirect that sends stdout somewhere other than the agent (a file, /dev/null); `>&2` still reaches it. */
function stdoutAway(fd: string | null, op: string, target: string | null): boolean {
  if (op === '&>' || op === '&>>') return true;
  if ((fd ?? '1') !== '1') return false;
  if (op === '>&') return target !== '2';
  return op === '>' || op === '>>' || op === '>|';
}

function describe(line: string, spans: readonly Span[]): string {
  return spans.map((span) => line.slice(span.start, span.end).slice(0, 40)).join(' | ');
}
