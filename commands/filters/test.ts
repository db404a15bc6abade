import * as z from 'zod/mini';
import { runInlineTests, type InlineTestResult } from '../../src/filters/file/inline-tests.ts';
import type { FileFilter } from '../../src/filters/file/filter.ts';
import type { FilterFileProblem } from '../../src/filters/file/files.ts';
import { CliError } from '../errors.ts';
import { parseOptions } from '../options.ts';
import { loadHere, loadOne, problemLine } from './load.ts';

const Options = z.object({ json: z.optional(z.boolean()) });

/** `tokenless filters test [FILE]`: runs the inline tests of one file, or of every filter file here; exit 1 when a
 * test fails or a file has a problem, with a diff of expected against actual. */
export function testCommand(file: string | undefined, raw: unknown): void {
  const options = parseOptions(Options, raw, 'filters test');
  let filters: readonly FileFilter[];
  let problems: readonly FilterFileProblem[];
  if (file !== undefined) {
    const one = loadOne(file, 'test');
    filters = one.filters;
    problems = one.problems;
  } else {
    const { set } = loadHere();
    filters = set.files.flatMap((entry) => entry.filters);
    problems = set.problems;
  }
  const results = filters.flatMap(runInlineTests);
  const untested = filters.filter((filter) => filter.tests.length === 0).map((filter) => filter.name);
  const failed = results.filter((result) => !result.passed).length;
  if (options.json === true) {
    process.stdout.write(`${JSON.stringify({ results, untested, problems })}\n`);
  } else {
    const lines = results.map(resultLines).flat();
    for (const name of untested) lines.push(`none  ${name}: no inline tests ([[test]] with input and expected)`);
    for (const problem of problems) lines.push(`error ${problemLine(problem)}`);
    lines.push(`${results.length - failed} passed, ${failed} failed${problems.length > 0 ? `, ${problems.length} file problem(s)` : ''}`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  if (filters.length === 0 && problems.length === 0) throw new CliError('tokenless filters test: no filter files here (looked in .tokenless/filters/ and ~/.config/tokenless/filters/)');
  if (failed > 0 || problems.length > 0) process.exitCode = 1;
}

function resultLines(result: InlineTestResult): string[] {
  const head = `${result.passed ? 'pass' : 'FAIL'}  ${result.filter}: ${result.name}`;
  if (result.passed) return [head];
  if (result.error !== null) return [`${head} (${result.error})`];
  return [head, ...(result.diff ?? '').trimEnd().split('\n').map((line) => `      ${line}`)];
}
