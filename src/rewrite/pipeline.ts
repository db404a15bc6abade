// Pipelines whose last stages only select lines of what the first stage printed (`npm test 2>&1 | tail -50`,
// `find . -name x | grep -v test | sort`): the line runs exactly as typed, and only the last stage goes through the
// wrapper, which views its output with the filter of the program that produced the content.

import type { Pipeline, SimpleCommand } from '../shell/types.ts';
import { literalValue } from '../shell/word.ts';
import { resolveWrappers } from '../permissions/shell-state.ts';

/** A word the view argv may carry as typed: `--view-as` joins them with single spaces and `run` splits them again. */
const PLAIN = /^[A-Za-z0-9_./:=@%+,-]+$/;

/**
 * The producer's argv to view the last stage's output with, or null when the pipeline is not a producer followed by
 * line selectors. Only the producer's leading plain words are kept (a filter that needs a later word declines).
 */
export function producerView(pipeline: Pipeline): readonly string[] | null {
  if (pipeline.operators.includes('|&') || pipeline.commands.length < 2) return null;
  const [producer, ...selectors] = pipeline.commands;
  if (producer?.kind !== 'simple' || producer.words.length === 0) return null;
  for (const stage of selectors) {
    if (stage.kind !== 'simple' || !selectsLines(stage)) return null;
  }
  const resolved = resolveWrappers(producer.words);
  if (!resolved.ok) return null;
  const argv: string[] = [];
  for (const word of producer.words.slice(resolved.programIndex)) {
    const value = literalValue(word.text);
    if (value === null || !PLAIN.test(value)) break;
    argv.push(value);
  }
  return argv.length > 0 ? argv : null;
}

/** Options that take a value, per selector: the value is skipped, never taken for an operand. */
const GREP_VALUES: ReadonlySet<string> = new Set(['-e', '--regexp', '-A', '-B', '-C', '-m', '--max-count', '--after-context', '--before-context', '--context']);
const VALUE_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  head: new Set(['-n', '--lines']),
  tail: new Set(['-n', '--lines']),
  grep: GREP_VALUES,
  egrep: GREP_VALUES,
  fgrep: GREP_VALUES,
  sort: new Set(['-k', '--key', '-t', '--field-separator']),
  uniq: new Set(),
  cat: new Set(),
};

/**
 * Flags that keep the output a subset of the input's lines, in the input's shape. Counting (`-c`, `uniq -c`), file
 * names (`-l`), line numbers (`-n`), match parts (`-o`), following (`tail -f`) and byte cuts (`-c`) all change it.
 */
const GREP_FLAGS = /^(-[ivEFwxPsa]+|-[ABCm]\d+|-e.+|--(ignore-case|invert-match|extended-regexp|fixed-strings|word-regexp|line-regexp|perl-regexp|no-messages|text|color=never|colour=never|regexp=.+|max-count=\d+|(after|before)-context=\d+|context=\d+))$/;
const LINE_FLAGS: Readonly<Record<string, RegExp>> = {
  head: /^(-\d+|-n\d+|--lines=\d+)$/,
  tail: /^(-\d+|\+\d+|-n\+?\d+|--lines=\+?\d+)$/,
  grep: GREP_FLAGS,
  egrep: GREP_FLAGS,
  fgrep: GREP_FLAGS,
  sort: /^(-[rufnVhbdsgM]+|-k.+|-t.|--(reverse|unique|ignore-case|numeric-sort|version-sort|human-numeric-sort|stable|key=.+|field-separator=.))$/,
  uniq: /^(-[ui]+|--(unique|ignore-case))$/,
  cat: /$^/,
};

/** Whether a pipe stage prints only some of its input lines, unchanged and in order (or sorted), reading stdin. */
export function selectsLines(stage: SimpleCommand): boolean {
  if (stage.assignments.length > 0 || stage.redirects.length > 0) return false;
  const values = stage.words.map((word) => literalValue(word.text));
  if (values.some((value) => value === null)) return false;
  const [program, ...args] = values as string[];
  if (program === undefined) return false;
  const flags = LINE_FLAGS[program];
  const takesValue = VALUE_OPTIONS[program];
  if (flags === undefined || takesValue === undefined) return false;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if (takesValue.has(arg)) {
      i += 1;
      if (i >= args.length) return false;
      continue;
    }
    if ((arg.startsWith('-') && arg !== '-') || (program === 'tail' && arg.startsWith('+'))) {
      if (!flags.test(arg)) return false;
      continue;
    }
    operands.push(arg);
  }
  const explicitPattern = args.some((arg) => arg === '-e' || arg === '--regexp' || arg.startsWith('-e') || arg.startsWith('--regexp='));
  // grep's pattern is its first operand unless -e gave it; any other operand is a file, which it would read instead.
  const patterns = program.endsWith('grep') && !explicitPattern ? 1 : 0;
  return operands.length === patterns && (program !== 'cat' || operands.length === 0);
}
