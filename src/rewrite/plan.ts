// planRewrite: which top-level commands of a Bash tool command line run through `tokenless run`. The plan only
// ever inserts text at the start of a simple command; every other character of the line stays as typed.

import { lineEffects } from '../shell/effects.ts';
import { parseShell, simpleCommands } from '../shell/parse.ts';
import { shellQuote } from '../shell/quote.ts';
import type { Command, List, Pipeline, Script } from '../shell/types.ts';
import { assignmentName, literalValue } from '../shell/word.ts';
import { decideSimple, type DecideContext } from './decide.ts';
import { producerView } from './pipeline.ts';
import type { RewriteGuard, RewriteInsertion, RewriteOptions, RewritePlan, RewriteSegment } from './types.ts';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const COMPOUND_REASON: Record<Exclude<Command['kind'], 'simple'>, string> = {
  subshell: 'inside a subshell: left as typed',
  group: 'inside a { …; } group: left as typed',
  arithmetic: 'arithmetic command',
  test: '[[ … ]] test',
};

/** Decides, for each top-level command of `command`, whether it runs through the wrapper. Pure; never throws. */
export function planRewrite(command: string, options: RewriteOptions): RewritePlan {
  const untouched = (reason: string, segments: readonly RewriteSegment[] = []): RewritePlan => ({
    command: null,
    segments,
    insertions: [],
    guards: [],
    reason,
  });
  try {
    if (command.trim() === '') return untouched('empty command');
    const context = readOptions(options);
    if (typeof context === 'string') return untouched(context);
    const parsed = parseShell(command);
    if (parsed.kind === 'unparseable') return untouched(`cannot parse with certainty: ${parsed.message} (${parsed.code})`);

    const shown = namesTheRewrittenLine(parsed.script);
    if (shown !== null) return untouched(shown);
    const segments: RewriteSegment[] = [];
    const insertions: RewriteInsertion[] = [];
    const guards: RewriteGuard[] = [];
    const prefix = envPrefix(options.attributionEnv);
    for (const chain of parsed.script.list.items) {
      for (const pipeline of chain.pipelines) {
        const produced = producerView(pipeline);
        pipeline.commands.forEach((node, i) => {
          const source = command.slice(node.start, node.end);
          // The last stage of `producer | selector…` is viewed with the producer's filter.
          const viewAs = i === pipeline.commands.length - 1 && produced !== null && (context.options.wrapUnknown === true || context.options.isWrappable(produced)) ? produced : undefined;
          const positional = positionReason(pipeline, i, chain.background);
          const decision =
            positional !== null ? { action: 'keep' as const, reason: positional }
            : node.kind === 'simple' ? decideSimple(node, source, context, viewAs)
            : { action: 'keep' as const, reason: COMPOUND_REASON[node.kind] };
          if (decision.action !== 'wrap') {
            segments.push({ source, start: node.start, end: node.end, action: decision.action, reason: decision.reason });
            return;
          }
          const viewArgv = viewAs ?? decision.argv;
          segments.push({ source, start: node.start, end: node.end, action: 'wrap', reason: decision.reason, viewArgv });
          const viewOption = viewAs === undefined ? '' : ` --view-as ${shellQuote(viewAs.join(' '))}`;
          insertions.push({ offset: decision.wrapperAt, text: `${prefix}${options.wrapperCommand} run${viewOption} -- ` });
          if (decision.name !== null && options.resolveNamesInShell !== false) guards.push({ start: node.start, end: node.end, name: decision.name });
        });
      }
    }
    const wrapped = segments.filter((segment) => segment.action === 'wrap').length;
    if (wrapped === 0) {
      const only = segments.length === 1 ? segments[0] : undefined;
      return untouched(only !== undefined ? `left as typed: ${only.reason}` : 'no command can be wrapped', segments);
    }
    if (guards.length > 0 && parsed.script.flags.includes('comment')) return untouched('a comment could swallow the name check', segments);
    const inserted = applyInsertions(command, insertions);
    if (!sameShape(parsed.script.list, inserted)) return untouched('the rewrite would change the command structure', segments);
    return { command: applyGuards(command, insertions, guards), segments, insertions, guards, reason: `wrapped ${wrapped} of ${segments.length} commands` };
  } catch (error) {
    return untouched(`internal error: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Shell state that names the command bash is running or tells whether it traces: a rewrite would show in it. */
const SELF_STATE = ['BASH_COMMAND', 'BASH_XTRACEFD', 'SHELLOPTS', 'BASHOPTS'];
/** An expansion of one of SELF_STATE (`$BASH_COMMAND`, `${SHELLOPTS}`, `${#BASHOPTS}`), quoted or not. */
const SELF_STATE_EXPANSION = new RegExp(`\\$\\{?[#!]?(?:${SELF_STATE.join('|')})(?![A-Za-z0-9_])`);
/** A `set`/`shopt -o` word that turns on xtrace or verbose: `-x`, `-vx`, `-euxo`, `+x` (off, but still a trace line). */
const TRACE_FLAG = /^[-+][A-Za-z]*[xv]/;

/**
 * Why the line shows its own command text back, or null: a trap may read $BASH_COMMAND (the rewritten command when
 * it fires), `set -x` / `set -v` / `shopt -so xtrace` trace each command, and $BASH_COMMAND, $BASH_XTRACEFD,
 * $SHELLOPTS, $BASHOPTS read where bash is and what it traces; all of these would name the rewritten line (issue 30
 * item 14), so such a line passes through untouched. Only the current shell matters: `bash -x script` traces the
 * script's commands, never ours. A word we cannot read statically counts as one that could.
 */
function namesTheRewrittenLine(script: Script): string | null {
  const effects = lineEffects(script);
  for (const node of effects.commands) {
    const all = node.words.map((word) => literalValue(word.text));
    // `builtin set -x` and `command set -x` are the same builtin.
    const words = all[0] === 'builtin' || all[0] === 'command' ? all.slice(1) : all;
    if (words[0] === 'trap' && words.length > 1) return 'a trap could read $BASH_COMMAND, which would name the wrapper';
    if (words[0] === 'set' && words.slice(1).some((word) => word === null || TRACE_FLAG.test(word) || word === 'xtrace' || word === 'verbose')) return 'set -x or -v would trace the wrapper';
    if (words[0] === 'shopt' && words.slice(1).some((word) => word === null || word === 'xtrace' || word === 'verbose')) return 'shopt -o xtrace would trace the wrapper';
    const texts = [...node.assignments, ...node.words].map((word) => word.text);
    const named = [...all, ...node.assignments.map((word) => assignmentName(word.text))];
    if (texts.some((text) => SELF_STATE_EXPANSION.test(text)) || named.some((word) => word !== null && SELF_STATE.includes(word))) return 'the line reads $BASH_COMMAND or the shell options';
  }
  // Redirect targets, unquoted heredoc bodies (bash expands them), `[[ … ]]` and `(( … ))` hold no simple words.
  const texts = [
    ...effects.redirects.map((redirect) => redirect.heredoc === null || redirect.heredoc.quoted ? redirect.target.text : script.source.slice(redirect.heredoc.bodyStart, redirect.heredoc.bodyEnd)),
    ...effects.tests.map((test) => script.source.slice(test.start, test.end)),
  ];
  if (texts.some((text) => SELF_STATE_EXPANSION.test(text) || SELF_STATE.some((name) => new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`).test(text)))) return 'the line reads $BASH_COMMAND or the shell options';
  return null;
}

/**
 * Why the command's place in the line forbids wrapping, or null. A pipe producer's output is another program's
 * input, which a filter would change; `|&` merges stderr into that input; a background job's output is not the
 * agent's to read and its `$!` must stay the real program.
 */
function positionReason(pipeline: Pipeline, index: number, background: boolean): string | null {
  if (background) return 'runs in the background (&)';
  if (pipeline.operators.includes('|&')) return 'pipeline with |&';
  if (index < pipeline.commands.length - 1) return 'its output feeds a pipe';
  return null;
}

/** Validates options that are ours to trust only once: the wrapper must be plain static words. */
function readOptions(options: RewriteOptions): DecideContext | string {
  for (const name of Object.keys(options.attributionEnv)) {
    if (!ENV_NAME.test(name)) return `invalid attribution variable name ${JSON.stringify(name)}`;
  }
  const parsed = parseShell(options.wrapperCommand);
  const item = parsed.kind === 'parsed' && parsed.script.list.items.length === 1 ? parsed.script.list.items[0] : undefined;
  const only = item?.pipelines.length === 1 ? item.pipelines[0]?.commands : undefined;
  const simple = only?.length === 1 ? only[0] : undefined;
  if (simple?.kind !== 'simple' || simple.assignments.length > 0 || simple.redirects.length > 0 || simple.words.length === 0) {
    return 'the wrapper command is not a plain command';
  }
  const values = simple.words.map((word) => literalValue(word.text));
  const ownPath = values.at(-1);
  if (values.some((value) => value === null) || typeof ownPath !== 'string') return 'the wrapper command is not static';
  return { options, ownPath };
}

function envPrefix(env: Readonly<Record<string, string>>): string {
  return Object.entries(env)
    .map(([name, value]) => `${name}=${shellQuote(value)} `)
    .join('');
}

/**
 * Puts each guarded command in a name check, so that the shell's own name resolution decides: the wrapper runs only
 * when the name is a program on disk, and an alias, function or builtin of the agent's shell (Claude Code sources a
 * snapshot of the user's aliases and functions) runs as typed. `command -v` answers the same way in bash, zsh and sh.
 */
function applyGuards(command: string, insertions: readonly RewriteInsertion[], guards: readonly RewriteGuard[]): string {
  let out = '';
  let at = 0;
  const within = (guard: RewriteGuard) => insertions.filter(({ offset }) => offset >= guard.start && offset < guard.end);
  for (const guard of guards) {
    out += applyInsertions(command.slice(at, guard.start), insertions.filter(({ offset }) => offset >= at && offset < guard.start).map(shift(-at)));
    const typed = command.slice(guard.start, guard.end);
    const wrapped = applyInsertions(typed, within(guard).map(shift(-guard.start)));
    // A bare name is a program only when `command -v` prints an absolute path; a path typed with a slash is run
    // only when it names an executable file, and then `command -v` prints it back (bash: nothing otherwise).
    const program = guard.name.includes('/') ? '*/*' : '/*';
    out += `case $(command -v ${guard.name}) in ${program}) ${wrapped};; *) ${typed};; esac`;
    at = guard.end;
  }
  return out + applyInsertions(command.slice(at), insertions.filter(({ offset }) => offset >= at).map(shift(-at)));
}

const shift = (by: number) => (insertion: RewriteInsertion): RewriteInsertion => ({ offset: insertion.offset + by, text: insertion.text });

function applyInsertions(command: string, insertions: readonly RewriteInsertion[]): string {
  // One pass over the sorted offsets: a long list of segments must not rebuild the string once per insertion.
  const parts: string[] = [];
  let at = 0;
  for (const { offset, text } of [...insertions].sort((a, b) => a.offset - b.offset)) {
    parts.push(command.slice(at, offset), text);
    at = offset;
  }
  parts.push(command.slice(at));
  return parts.join('');
}

/** A last guard: the rewritten line must parse into the same simple commands with the same redirects. */
function sameShape(original: List, rewritten: string): boolean {
  const after = parseShell(rewritten);
  if (after.kind !== 'parsed') return false;
  const a = simpleCommands(original);
  const b = simpleCommands(after.script.list);
  return a.length === b.length && a.every((command, i) => command.redirects.length === b[i]?.redirects.length);
}
