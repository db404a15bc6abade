/**
 * Parses one filter file's text into filters, or into problems that name the file, the line and what is wrong.
 * Pure: the caller reads the file. A file with any problem yields no filters at all, so a half-understood filter
 * never runs.
 */
import { parse as parseToml, TomlError } from 'smol-toml';
import { FilterSchema, ManyFiltersSchema, STAGE_ORDER, type FilterSpec, type Stages } from './schema.ts';
import { compilePattern } from './budget.ts';
import { parseCommandPattern } from './command-pattern.ts';
import type { FileFilter, FilterScope } from './filter.ts';
import { compileStages, type CompiledStages } from './stages.ts';

export interface FilterFileProblem {
  readonly path: string;
  /** 1-based, when it can be told. */
  readonly line: number | null;
  readonly message: string;
}

export interface ParsedFilterFile {
  readonly filters: readonly FileFilter[];
  readonly problems: readonly FilterFileProblem[];
}

/** Filter files larger than this are refused unread: a filter is a page of patterns, not a data set. */
export const FILTER_FILE_MAX_BYTES = 256 * 1024;


export function parseFilterFile(text: string, path: string, scope: FilterScope): ParsedFilterFile {
  const fail = (message: string, line: number | null = null): ParsedFilterFile => ({ filters: [], problems: [{ path, line, message }] });
  if (Buffer.byteLength(text) > FILTER_FILE_MAX_BYTES) return fail(`larger than ${FILTER_FILE_MAX_BYTES / 1024} KB`);
  let document: unknown;
  try {
    document = parseToml(text);
  } catch (error) {
    if (error instanceof TomlError) return fail(error.message.split('\n')[0] ?? 'not TOML', error.line);
    return fail('not TOML');
  }
  const specs = filterSpecs(document, path, text);
  if (!specs.ok) return { filters: [], problems: specs.problems };
  const filters: FileFilter[] = [];
  const problems: FilterFileProblem[] = [];
  for (const [name, spec] of specs.filters) {
    const built = buildFilter(name, spec, path, scope, text);
    if (built.filter !== null) filters.push(built.filter);
    problems.push(...built.problems);
  }
  return problems.length === 0 ? { filters, problems } : { filters: [], problems };
}

type Specs = { ok: true; filters: [string, FilterSpec][] } | { ok: false; problems: FilterFileProblem[] };

function filterSpecs(document: unknown, path: string, text: string): Specs {
  const many = typeof document === 'object' && document !== null && 'filters' in document;
  const parsed = many ? ManyFiltersSchema.safeParse(document) : FilterSchema.safeParse(document);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => {
        const field = issue.path.map(String).join('.');
        const key = issue.path.filter((part) => typeof part === 'string').at(-1);
        const unknown = issue.code === 'unrecognized_keys' ? ` (${issue.keys.join(', ')}; allowed: ${allowedKeys()})` : '';
        return { path, line: lineOfKey(text, issue.code === 'unrecognized_keys' ? issue.keys[0] : key), message: `${field === '' ? '' : `${field}: `}${issue.message}${unknown}` };
      }),
    };
  }
  if (many) return { ok: true, filters: Object.entries((parsed.data as { filters: Record<string, FilterSpec> }).filters) };
  const spec = parsed.data as FilterSpec;
  return { ok: true, filters: [[spec.name ?? fileStem(path), spec]] };
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

function pickStages(spec: FilterSpec): Stages {
  const stages: Record<string, unknown> = {};
  for (const key of STAGE_ORDER) if (spec[key] !== undefined) stages[key] = spec[key];
  return stages;
}

function allowedKeys(): string {
  return ['name', 'description', 'command', 'content', 'priority', ...STAGE_ORDER, 'on_success', 'on_failure', 'test'].join(', ');
}

function fileStem(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base.replace(/\.toml$/i, '');
}

function lineOfKey(text: string, key: string | undefined): number | null {
  if (key === undefined) return null;
  const lines = text.split('\n');
  const index = lines.findIndex((line) => new RegExp(`^\\s*(\\[+\\s*)?(filters\\.)?${escapeRegex(key)}\\b`).test(line));
  return index === -1 ? null : index + 1;
}

function lineOf(text: string, needle: string): number | null {
  const lines = text.split('\n');
  const index = lines.findIndex((line) => line.includes(needle) || line.includes(JSON.stringify(needle).slice(1, -1)));
  return index === -1 ? null : index + 1;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
