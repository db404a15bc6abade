// The wrap-or-keep decision for one simple command that is free to be wrapped as far as its position in the
// line goes (not a pipe producer, not in the background, not inside a subshell).

import type { Redirect, SimpleCommand } from '../shell/types.ts';
import { assignmentName, literalValue } from '../shell/word.ts';
import { neverWrapReason, resolveWrappers, staticPrefix } from '../permissions/shell-state.ts';
import type { RewriteOptions } from './types.ts';

export type Decision =
  | { readonly action: 'keep'; readonly reason: string }
  | {
      readonly action: 'wrap';
      readonly reason: string;
      /** Where the wrapper goes: before the first word, outside `timeout`/`nice`/`env`, so a kill reaches the program. */
      readonly wrapperAt: number;
      /** The program's static words, wrappers skipped. */
      readonly argv: readonly string[];
      /** The command name as typed when the shell might resolve it to an alias or function (no slash); else null. */
      readonly name: string | null;
    };

export interface DecideContext {
  readonly options: RewriteOptions;
  /** The static value of the wrapper's last word (our script or binary), to recognise a call to ourselves. */
  readonly ownPath: string;
}

const OWN_NAMES = new Set(['tokenless', 'syt', 'save-your-tokens']);
const RUNNERS = new Set(['npx', 'pnpx', 'bunx', 'node', 'bun', 'deno', 'npm', 'pnpm', 'yarn', 'exec']);

/** A reference to the previous command's status or last argument, which a name check in front would change. */
const PREVIOUS_COMMAND = /\$(\?|\{[?_]\}|_(?![A-Za-z0-9_]))/;

/**
 * viewAs: the producer's argv when this command is the last stage of a pipeline that only selects lines; the
 * producer's filter then views the output, so this command needs no filter of its own.
 */
export function decideSimple(command: SimpleCommand, source: string, context: DecideContext, viewAs?: readonly string[]): Decision {
  const keep = (reason: string): Decision => ({ action: 'keep', reason });
  const { words } = command;
  const first = words[0];
  if (first === undefined) return keep(command.assignments.length > 0 ? 'only sets shell variables' : 'only redirects');
  for (const assignment of command.assignments) {
    const name = assignmentName(assignment.text) ?? '';
    if (name === 'TOKENLESS_DISABLED') return keep('TOKENLESS_DISABLED is set for this command');
    if (name.startsWith('TOKENLESS_')) return keep(`sets ${name} itself`);
  }
  if (command.flags.includes('heredoc')) return keep('has a heredoc');
  if (command.flags.includes('herestring')) return keep('has a here-string');
  // The wrapper's child would not inherit the /dev/fd/N pipe that process substitution hands over.
  if (command.flags.includes('process-substitution')) return keep('uses process substitution');
  if (command.flags.includes('named-fd')) return keep('opens a named file descriptor');
  for (const redirect of command.redirects) {
    const reason = redirectReason(redirect);
    if (reason !== null) return keep(reason);
  }
  if (source.includes(context.options.wrapperCommand)) return keep('already runs through tokenless');
  if (PREVIOUS_COMMAND.test(source)) return keep("refers to the previous command's status or argument");

  const resolved = resolveWrappers(words);
  if (!resolved.ok) return keep(resolved.reason);
  const programWord = words[resolved.programIndex];
  const program = programWord === undefined ? null : literalValue(programWord.text);
  if (programWord === undefined || program === null) return keep('the program name is not static');
  const never = neverWrapReason(program);
  if (never !== null) return keep(never);
  const argv = staticPrefix(words, resolved.programIndex);
  if (runsOurselves(argv, context.ownPath)) return keep('runs tokenless itself');
  const excluded = excludedBy(argv, words.length - resolved.programIndex, context.options.exclude);
  if (excluded !== null) return keep(`excluded by configuration (${excluded})`);
  const viewed = viewAs ?? argv;
  if (viewAs !== undefined) {
    const producerExcluded = excludedBy(viewAs, viewAs.length, context.options.exclude);
    if (producerExcluded !== null) return keep(`excluded by configuration (${producerExcluded})`);
  }
  let wrappable = false;
  try {
    wrappable = context.options.isWrappable(viewed);
  } catch {
    return keep('the filter registry failed on this command');
  }
  if (!wrappable) return keep(`no filter for ${viewed.slice(0, 2).join(' ')}`);
  const firstName = literalValue(first.text);
  const reason = viewAs === undefined ? `filtered: ${argv.slice(0, 2).join(' ')}` : `viewed as ${viewAs.slice(0, 2).join(' ')} output`;
  return { action: 'wrap', reason, wrapperAt: first.start, argv, name: firstName !== null && !firstName.includes('/') ? first.text : null };
}

/**
 * Why a redirect makes wrapping pointless or unsafe, or null when it is harmless. Output the agent does not
 * see has nothing to save; `2>&1` and `2>/dev/null` keep stdout on screen and apply to the wrapper unchanged;
 * input from a file reaches the program through the wrapper's stdin.
 */
function redirectReason(redirect: Redirect): string | null {
  const target = literalValue(redirect.target.text);
  const fd = redirect.fd ?? (redirect.op.startsWith('<') ? '0' : '1');
  if (redirect.op === '<' && fd === '0') return null;
  if (redirect.op === '>&' && fd === '2' && target === '1') return null;
  if ((redirect.op === '>' || redirect.op === '>>') && fd === '2' && target === '/dev/null') return null;
  if (fd === '0') return 'reads its input in an unusual way';
  if (fd === '1' || redirect.op === '&>' || redirect.op === '&>>') return 'its output is redirected';
  if (fd === '2') return 'its stderr is redirected';
  return `redirects file descriptor ${fd}`;
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

// `tokenless retrieve` must reach the agent verbatim, and wrapping ourselves would only nest the wrapper.
function runsOurselves(argv: readonly string[], ownPath: string): boolean {
  const program = argv[0] ?? '';
  const looked = RUNNERS.has(basename(program)) ? argv.slice(0, 3) : [program];
  return looked.some((word) => OWN_NAMES.has(basename(word)) || word === ownPath);
}

/**
 * The exclude entry matching the command, or null. An entry is a program name (matched on the name and its
 * basename) or a word prefix; when the static words run out before an entry does, the command might match,
 * so it counts as excluded.
 */
function excludedBy(argv: readonly string[], wordCount: number, exclude: readonly string[]): string | null {
  for (const entry of exclude) {
    const parts = entry.trim().split(/\s+/).filter((part) => part !== '');
    const [head, ...rest] = parts;
    const program = argv[0];
    if (head === undefined || program === undefined) continue;
    if (head !== program && head !== basename(program)) continue;
    const known = rest.every((part, i) => argv[i + 1] === undefined || argv[i + 1] === part);
    const unsure = rest.length >= argv.length && wordCount > argv.length;
    const full = rest.every((part, i) => argv[i + 1] === part);
    if (full || (known && unsure)) return entry;
  }
  return null;
}
