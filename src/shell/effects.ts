// What a parsed command line can execute, write and read, as far as a permission check must know: every simple
// command wherever it sits (subshells and groups included), every redirect on any node (a `{ …; } > f` writes f as
// surely as `cat > f`), every compound a read-only check cannot vouch for, and whether bash may run a command that
// no simple command of the tree shows. The last one is wider than "has a $(…)": bash evaluates arithmetic in
// `(( … ))`, `$(( … ))`, `$[ … ]`, the operands of `[[ -eq ]]`, `[[ -v ]]`, array subscripts, `let`, `declare`…,
// and arithmetic expands `$(…)` found in a string even when the shell quoted it (`[[ 'a[$(id)]' -eq 0 ]]` runs id);
// an unquoted heredoc body expands `$(…)` too, and the lexer does not scan bodies.

import { simpleCommands } from './parse.ts';
import type { Command, CompoundCommand, List, Redirect, Script, SimpleCommand } from './types.ts';
import { literalValue } from './word.ts';

export interface LineEffects {
  /** Every simple command outside substitutions, in source order. */
  readonly commands: readonly SimpleCommand[];
  /** Every redirect of the line, on simple commands and on compounds alike. */
  readonly redirects: readonly Redirect[];
  /** `[[ … ]]` and `(( … ))` commands: they read file metadata and evaluate expressions. */
  readonly tests: readonly CompoundCommand[];
  /** Why bash may run commands that `commands` does not hold, or null when it cannot. */
  readonly hidden: string | null;
}

/** Builtins that evaluate their arguments as arithmetic or as variable names with subscripts. */
const EVALUATORS = new Set(['let', 'declare', 'typeset', 'local', 'readonly', 'export', 'unset', 'printf', 'read', 'test', '[', 'mapfile', 'readarray', 'eval', 'source', '.', 'trap', 'wait', 'getopts', 'shift', 'return', 'exit', 'ulimit', 'builtin', 'command']);
/** Text that runs a command once something evaluates it, whatever quoting the lexer saw. */
const SUBSTITUTION_TEXT = /\$\(|`|[<>]\(/;
/** A subscript (`a[…]`) or a parameter expansion whose operators take arithmetic (`${a:…}`, `${a[…]}`). */
const SUBSCRIPT_TEXT = /[A-Za-z_][A-Za-z0-9_]*\[|\$\{/;

export function lineEffects(script: Script): LineEffects {
  const redirects: Redirect[] = [];
  const tests: CompoundCommand[] = [];
  walk(script.list, (command) => {
    redirects.push(...command.redirects);
    if (command.kind === 'arithmetic' || command.kind === 'test') tests.push(command);
  });
  const commands = simpleCommands(script.list);
  return { commands, redirects, tests, hidden: hiddenReason(script, commands, redirects) };
}

function hiddenReason(script: Script, commands: readonly SimpleCommand[], redirects: readonly Redirect[]): string | null {
  const flags = new Set(script.flags);
  if (flags.has('command-substitution') || flags.has('backtick') || flags.has('process-substitution')) return 'a command substitution';
  if (!SUBSTITUTION_TEXT.test(script.source)) return null;
  // From here the line holds `$(`, a backtick or `<(` inside quotes: literal text unless something evaluates it.
  if (redirects.some((redirect) => redirect.heredoc !== null && !redirect.heredoc.quoted)) return 'an unquoted heredoc body, which bash expands';
  if (flags.has('arithmetic') || flags.has('arithmetic-command') || flags.has('test-command')) return 'arithmetic, which bash evaluates with the substitutions in it';
  if (SUBSCRIPT_TEXT.test(script.source)) return 'a subscript or parameter operator, which bash evaluates as arithmetic';
  const evaluator = commands.find((command) => command.words.some((word) => EVALUATORS.has(literalValue(word.text) ?? '')));
  if (evaluator !== undefined) return 'a builtin that evaluates its arguments';
  return null;
}

/** Calls `visit` on every command node, outside substitutions, descending into subshells and groups. */
function walk(list: List, visit: (command: Command) => void): void {
  for (const chain of list.items) {
    for (const pipeline of chain.pipelines) {
      for (const command of pipeline.commands) {
        visit(command);
        if (command.kind !== 'simple' && command.body !== null) walk(command.body, visit);
      }
    }
  }
}
