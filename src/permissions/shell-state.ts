// Which programs must never run through the wrapper, and which command wrappers (`timeout 60 …`) we can see
// through. A wrapped command runs as a child of `tokenless run`, outside the shell: anything that acts on the
// shell itself, or that depends on being the shell's direct child, has to stay as typed.

import type { Word } from '../shell/types.ts';
import { assignmentName, literalValue } from '../shell/word.ts';

const SHELL_STATE =
  'cd pushd popd dirs export unset source . alias unalias set shopt eval exec exit return declare typeset local ' +
  'readonly trap ulimit umask hash wait jobs fg bg disown read mapfile readarray builtin command let shift getopts ' +
  'break continue enable complete compgen compopt bind history logout suspend caller times kill printf ' +
  // zsh: the agent's shell may be the user's login shell.
  'setopt unsetopt autoload emulate zmodload bindkey functions rehash zle zstyle compdef noglob nocorrect';
// Builtins that change nothing but behave differently from the same-named program in /bin (or have none).
const PLAIN_BUILTINS = 'echo pwd test [ true false : type help whence where which print time coproc';
const PRIVILEGE = 'sudo doas su pkexec runuser';

const NEVER = new Map<string, string>([
  ...SHELL_STATE.split(' ').map((name) => [name, `${name} changes the shell's own state`] as const),
  ...PLAIN_BUILTINS.split(' ').map((name) => [name, `${name} is a shell builtin`] as const),
  ...PRIVILEGE.split(' ').map((name) => [name, `${name} runs with other privileges`] as const),
  // nohup is for jobs that outlive the shell (usually with `&`); its output is not shown to the agent.
  ['nohup', 'nohup starts a detached job'],
]);

/** Why `program` (a static command name without a slash) must stay as typed, or null. */
export function neverWrapReason(program: string): string | null {
  return program.includes('/') ? null : (NEVER.get(program) ?? null);
}

export type WrapperResolution = { readonly ok: true; readonly programIndex: number } | { readonly ok: false; readonly reason: string };

const DURATION = /^\d+(\.\d+)?[smhd]?$/;
const MAX_WRAPPERS = 4;

/** A command's words as the shell would pass them: the literal value, or null for a word the shell expands. */
type Values = readonly (string | null)[];

/**
 * Skips the command wrappers we understand (`timeout`, `nice`, plain `env NAME=value`) and returns the index of
 * the real program in `words`. Every word of a wrapper must be static: `env FOO=$X cmd` splits `$X` into words,
 * so the program could be anything. Anything unrecognised in a wrapper's options keeps the command.
 */
export function resolveWrappers(words: readonly Word[]): WrapperResolution {
  return resolveWrapperValues(words.map((word) => literalValue(word.text)));
}

/** The same on an argv (`tokenless run` sees through the wrappers it runs to pick the program's filter). */
export function resolveWrapperValues(values: Values): WrapperResolution {
  let i = 0;
  for (let depth = 0; depth <= MAX_WRAPPERS; depth += 1) {
    const name = values[i] ?? null;
    if (name !== 'timeout' && name !== 'nice' && name !== 'env') return { ok: true, programIndex: i };
    const next = name === 'timeout' ? skipTimeout(values, i + 1) : name === 'nice' ? skipNice(values, i + 1) : skipEnv(values, i + 1);
    if (typeof next === 'string') return { ok: false, reason: next };
    if (next >= values.length) return { ok: false, reason: `${name} without a command` };
    i = next;
  }
  return { ok: false, reason: 'too many nested command wrappers' };
}

// `timeout [--foreground|--preserve-status|-v|-s SIG|-k DUR]… DURATION`: the only options that take a value.
function skipTimeout(values: Values, from: number): number | string {
  let i = from;
  for (let arg = values[i] ?? null; arg !== null; arg = values[i] ?? null) {
    if (arg === '--foreground' || arg === '--preserve-status' || arg === '-v' || arg === '--verbose') i += 1;
    else if (arg === '-s' || arg === '-k' || arg === '--signal' || arg === '--kill-after') {
      if ((values[i + 1] ?? null) === null) return 'timeout option without a static value';
      i += 2;
    } else if (/^(-[sk].+|--(signal|kill-after)=.+)$/.test(arg)) i += 1;
    else if (arg === '--') i += 1;
    else if (DURATION.test(arg)) return i + 1;
    else return `timeout option ${arg} is not understood`;
  }
  return 'timeout arguments are not static';
}

// `nice [-n N|-nN|-N|--adjustment=N]`.
function skipNice(values: Values, from: number): number | string {
  const arg = values[from] ?? null;
  if (arg === null) return 'nice arguments are not static';
  if (arg === '-n' || arg === '--adjustment') {
    const value = values[from + 1] ?? null;
    return value !== null && /^[+-]?\d+$/.test(value) ? from + 2 : 'nice adjustment is not a static number';
  }
  if (/^(-n[+-]?\d+|-\d+|--adjustment=[+-]?\d+)$/.test(arg)) return from + 1;
  if (arg.startsWith('-')) return `nice option ${arg} is not understood`;
  return from;
}

// `env NAME=value… cmd` only: -i, -u, -C, -S and friends change the environment or the command line itself.
function skipEnv(values: Values, from: number): number | string {
  let i = from;
  for (; i < values.length; i += 1) {
    const value = values[i] ?? null;
    if (value === null) return 'env arguments are not static';
    if (value.startsWith('-')) return `env ${value} changes the environment`;
    // env takes every argument holding `=` as an assignment, even one that is no valid shell name.
    if (!value.includes('=')) return i;
    const name = assignmentName(value);
    if (name === null) return `env ${value} is not a plain assignment`;
    if (name.startsWith('TOKENLESS_')) return `sets ${name}`;
  }
  return i;
}

/**
 * The leading static words of a command from `from` on, stopping at the first word the shell expands. A filter
 * that needs a later word sees it missing and should decline.
 */
export function staticPrefix(words: readonly Word[], from: number): string[] {
  const argv: string[] = [];
  for (let i = from; i < words.length; i += 1) {
    const value = literalValue(words[i]?.text ?? '');
    if (value === null) break;
    argv.push(value);
  }
  return argv;
}
