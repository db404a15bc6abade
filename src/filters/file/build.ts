/**
 * Filters from validated specs: patterns compiled, stage sets merged for success and failure. Holds neither the
 * TOML parser nor zod's validation, so a cached spec (spec-cache.ts) becomes a filter without loading either.
 */
import { compilePattern } from './budget.ts';
import { parseCommandPattern } from './command-pattern.ts';
import type { FileFilter, FilterScope } from './filter.ts';
import type { FilterFileProblem } from './files.ts';
import type { FilterSpec, NamedSpecs, Stages } from './schema.ts';
import { STAGE_ORDER } from './stage-order.ts';
import { compileStages, type CompiledStages } from './stages.ts';

/** Every filter of a file; any problem in any of them, and none of the file's filters run. */
export interface ParsedFilterFile {
  readonly filters: readonly FileFilter[];
  readonly problems: readonly FilterFileProblem[];
}

/**
 * `validated`: the specs were built without problems before (the spec cache holds only those, for this program
 * version), so each filter's stages compile on first use, not for every hook call that only matches commands.
 */
export function filtersFromSpecs(specs: NamedSpecs, path: string, scope: FilterScope, text: string, options: { validated?: boolean } = {}): ParsedFilterFile {
  const filters: FileFilter[] = [];
  const problems: FilterFileProblem[] = [];
  for (const [name, spec] of specs) {
    const built = options.validated === true ? { filter: validatedFilter(name, spec, path, scope), problems: [] } : buildFilter(name, spec, path, scope, text);
    if (built.filter !== null) filters.push(built.filter);
    problems.push(...built.problems);
  }
  return problems.length === 0 ? { filters, problems } : { filters: [], problems };
}

function buildFilter(name: string, spec: FilterSpec, path: string, scope: FilterScope, text: string): { filter: FileFilter | null; problems: FilterFileProblem[] } {
  const problems: FilterFileProblem[] = [];
  const problem = (message: string, needle?: string): void => {
    problems.push({ path, line: needle === undefined ? null : lineOf(text, needle), message: `${name}: ${message}` });
  };
  const commands = spec.command === undefined ? [] : typeof spec.command === 'string' ? [spec.command] : spec.command;
  if (commands.length === 0 && spec.content === undefined) problem('needs `command` (program and argument patterns) or `content` (a regex over the first lines)');
  let content: RegExp | null = null;
  if (spec.content !== undefined) {
    const compiled = compilePattern(spec.content);
    if (compiled.ok) content = compiled.regex;
    else problem(`content ${JSON.stringify(spec.content)}: ${compiled.reason}`, spec.content);
  }
  const base = pickStages(spec);
  const stagesFor = (overrides: Stages | undefined, label: string): CompiledStages | null => {
    const { stages, problems: found } = compileStages({ ...base, ...overrides }, label);
    for (const found1 of found) problem(`${found1.field} ${JSON.stringify(found1.pattern)}: ${found1.reason}`, found1.pattern);
    return stages;
  };
  const onSuccess = stagesFor(spec.on_success, spec.on_success === undefined ? '' : 'on_success.');
  const onFailure = stagesFor(spec.on_failure, spec.on_failure === undefined ? '' : 'on_failure.');
  if (problems.length > 0 || onSuccess === null || onFailure === null) {
    // Patterns shared by both stage sets are reported once.
    const seen = new Set<string>();
    return { filter: null, problems: problems.filter((found) => !seen.has(found.message) && seen.add(found.message)) };
  }
  return {
    filter: {
      name,
      description: spec.description ?? null,
      path,
      scope,
      commands: commands.map(parseCommandPattern),
      content,
      priority: spec.priority ?? 'before',
      onSuccess,
      onFailure,
      tests: spec.test ?? [],
    },
    problems,
  };
}

function validatedFilter(name: string, spec: FilterSpec, path: string, scope: FilterScope): FileFilter {
  const base = pickStages(spec);
  // A spec that no longer compiles (it cannot, for the version that cached it) gets stages that keep every line:
  // a view that is not shorter is never shown, so the output passes through.
  const lazyStages = (overrides: Stages | undefined): (() => CompiledStages) => {
    let compiled: CompiledStages | undefined;
    return () => (compiled ??= compileStages({ ...base, ...overrides }).stages ?? keepEveryLine());
  };
  const success = lazyStages(spec.on_success);
  const failure = lazyStages(spec.on_failure);
  const content = spec.content === undefined ? null : compilePattern(spec.content);
  const commands = spec.command === undefined ? [] : typeof spec.command === 'string' ? [spec.command] : spec.command;
  return {
    name,
    description: spec.description ?? null,
    path,
    scope,
    commands: commands.map(parseCommandPattern),
    content: content?.ok === true ? content.regex : null,
    priority: spec.priority ?? 'before',
    get onSuccess() {
      return success();
    },
    get onFailure() {
      return failure();
    },
    tests: spec.test ?? [],
  };
}

function keepEveryLine(): CompiledStages {
  const { stages } = compileStages({});
  if (stages === null) throw new Error('stages without patterns always compile');
  return stages;
}

function pickStages(spec: FilterSpec): Stages {
  const stages: Record<string, unknown> = {};
  for (const key of STAGE_ORDER) if (spec[key] !== undefined) stages[key] = spec[key];
  return stages;
}

function lineOf(text: string, needle: string): number | null {
  const lines = text.split('\n');
  const index = lines.findIndex((line) => line.includes(needle) || line.includes(JSON.stringify(needle).slice(1, -1)));
  return index === -1 ? null : index + 1;
}

