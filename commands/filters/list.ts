import * as z from 'zod/mini';
import { FILTERS } from '../../src/filters/registry.ts';
import type { FileFilter } from '../../src/filters/file/filter.ts';
import { parseOptions } from '../options.ts';
import { terminalWidth } from '../terminal.ts';
import { fitTable, tableLine, type FitColumn } from '../ui/fit.ts';
import { loadHere, problemLine } from './load.ts';

const Options = z.object({ json: z.optional(z.boolean()) });

const COLUMNS: readonly FitColumn[] = [
  { header: 'filter', align: 'left', max: 28 },
  { header: 'from', align: 'left', max: 10 },
  { header: 'state', align: 'left', max: 10 },
  { header: 'matches', align: 'left', max: 60, min: 12 },
  { header: 'file', align: 'left', max: 60, optional: 1 },
];

/** `tokenless filters list`: the built-in filters and every filter file's filters, where each comes from, whether it
 * runs, and what it matches; problems with file and line after the table. */
export function listCommand(raw: unknown): void {
  const options = parseOptions(Options, raw, 'filters list');
  const { set } = loadHere();
  const fromFiles = set.files.flatMap((file) => file.filters.map((filter) => ({ filter, trusted: file.trusted })));
  if (options.json === true) {
    process.stdout.write(
      `${JSON.stringify({
        builtin: FILTERS.map((filter) => filter.name),
        files: set.files.map((file) => ({ path: file.path, scope: file.scope, trusted: file.trusted, sha256: file.hash, filters: file.filters.map(describe) })),
        problems: set.problems,
      })}\n`,
    );
    return;
  }
  const rows = [
    ...fromFiles.map(({ filter, trusted }) => [filter.name, filter.scope, trusted ? 'runs' : 'untrusted', matches(filter), filter.path]),
    ...FILTERS.map((filter) => [filter.name, 'built-in', 'runs', 'its commands', '']),
  ];
  const width = terminalWidth();
  const fitted = fitTable(COLUMNS, rows, width);
  const lines = [tableLine(COLUMNS.map((column) => column.header), COLUMNS, fitted, width), ...rows.map((row) => tableLine(row, COLUMNS, fitted, width))];
  const untrusted = set.files.filter((file) => !file.trusted);
  if (untrusted.length > 0) lines.push('', `${untrusted.length} project filter file(s) do not run until trusted: tokenless filters trust FILE`);
  if (set.problems.length > 0) lines.push('', 'problems (these files do not run):', ...set.problems.map(problemLine));
  process.stdout.write(`${lines.join('\n')}\n`);
}

function describe(filter: FileFilter): Record<string, unknown> {
  return {
    name: filter.name,
    description: filter.description,
    commands: filter.commands.map((pattern) => pattern.source),
    content: filter.content?.source ?? null,
    priority: filter.priority,
    tests: filter.tests.length,
  };
}

function matches(filter: FileFilter): string {
  const parts = filter.commands.map((pattern) => pattern.source);
  if (filter.content !== null) parts.push(`output /${filter.content.source}/`);
  return parts.join(', ');
}
