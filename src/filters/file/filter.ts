/**
 * A filter defined in a file, as a CommandFilter: the same contract as the built-ins, so its view goes through the
 * one arbitration, stash and retrieval line, is shown only when it pays, and never touches the exit code.
 */
import type { CommandFilter, CommandOutput } from '../types.ts';
import { lossy, makeView } from '../text.ts';
import { BudgetExceeded, FILTER_INPUT_MAX_BYTES, withinBudget } from './budget.ts';
import { matchesCommand, type CommandPattern } from './command-pattern.ts';
import type { InlineTest } from './schema.ts';
import { applyStages, type CompiledStages } from './stages.ts';

/** Where a filter file was found: the person's own (`user`) or a repository's (`project`, inert until trusted). */
export type FilterScope = 'user' | 'project';

export interface FileFilter {
  readonly name: string;
  readonly description: string | null;
  readonly path: string;
  readonly scope: FilterScope;
  readonly commands: readonly CommandPattern[];
  readonly content: RegExp | null;
  readonly priority: 'before' | 'after';
  readonly onSuccess: CompiledStages;
  readonly onFailure: CompiledStages;
  readonly tests: readonly InlineTest[];
}

/** How much of the output's start a content pattern is matched against, line by line. */
const CONTENT_LINES = 20;
const CONTENT_CHARS = 4096;

export function matchesContent(filter: FileFilter, output: CommandOutput): boolean {
  if (filter.content === null) return false;
  const head = (output.stdout === '' ? output.stderr : output.stdout).slice(0, CONTENT_CHARS).split('\n', CONTENT_LINES);
  const regex = filter.content;
  try {
    return withinBudget(() => head.some((line) => regex.test(line)));
  } catch (error) {
    if (error instanceof BudgetExceeded) return false;
    throw error;
  }
}

export function matchesArgv(filter: FileFilter, argv: readonly string[]): boolean {
  return filter.commands.some((pattern) => matchesCommand(pattern, argv));
}

/** The view of one output by this filter's stages for its exit status, each stream on its own; null when the output
 * is too large for filter files or the stages ran out of time. */
export function viewStreams(filter: FileFilter, output: CommandOutput): { stdout: string; stderr: string } | null {
  if (Buffer.byteLength(output.stdout) + Buffer.byteLength(output.stderr) > FILTER_INPUT_MAX_BYTES) return null;
  const stages = output.exitCode === 0 ? filter.onSuccess : filter.onFailure;
  try {
    return withinBudget(() => ({
      stdout: output.stdout === '' ? '' : applyStages(stages, output.stdout),
      stderr: output.stderr === '' ? '' : applyStages(stages, output.stderr),
    }));
  } catch (error) {
    if (error instanceof BudgetExceeded) return null;
    throw error;
  }
}

export function asCommandFilter(filter: FileFilter): CommandFilter {
  return {
    name: `file:${filter.name}`,
    matches: (argv) => matchesArgv(filter, argv),
    apply(output) {
      const view = viewStreams(filter, output);
      if (view === null) return null;
      return makeView(`file:${filter.name}`, output, lossy(view.stdout), lossy(view.stderr));
    },
  };
}
