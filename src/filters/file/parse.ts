/**
 * Parses one filter file's text into filters, or into problems that name the file, the line and what is wrong.
 * Pure: the caller reads the file. A file with any problem yields no filters at all, so a half-understood filter
 * never runs.
 */
import { parse as parseToml, TomlError } from 'smol-toml';
import { escapeRegex } from './budget.ts';
import { filtersFromSpecs, type ParsedFilterFile } from './build.ts';
import type { FilterScope } from './filter.ts';
import { FILTER_FILE_MAX_BYTES, type FilterFileProblem } from './files.ts';
import { FilterSchema, ManyFiltersSchema, type FilterSpec, type NamedSpecs } from './schema.ts';
import { STAGE_ORDER } from './stage-order.ts';

// Both types live beside what builds them (build.ts, schema.ts), so build.ts imports nothing from here.
export type { ParsedFilterFile } from './build.ts';
export type { NamedSpecs } from './schema.ts';

export function parseFilterFile(text: string, path: string, scope: FilterScope): ParsedFilterFile {
  const specs = parseSpecs(text, path);
  return specs.ok ? filtersFromSpecs(specs.filters, path, scope, text) : { filters: [], problems: specs.problems };
}

/** The validated specs of a file's text, named (TOML parsed, zod checked), or its problems. */
export function parseSpecs(text: string, path: string): Specs {
  const fail = (message: string, line: number | null = null): Specs => ({ ok: false, problems: [{ path, line, message }] });
  if (Buffer.byteLength(text) > FILTER_FILE_MAX_BYTES) return fail(`larger than ${FILTER_FILE_MAX_BYTES / 1024} KB`);
  let document: unknown;
  try {
    document = parseToml(text);
  } catch (error) {
    if (error instanceof TomlError) return fail(error.message.split('\n')[0] ?? 'not TOML', error.line);
    return fail('not TOML');
  }
  return filterSpecs(document, path, text);
}

export type Specs = { ok: true; filters: NamedSpecs } | { ok: false; problems: FilterFileProblem[] };

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
