/**
 * A starting filter file for one command, drafted from its recorded outputs: the command's patterns, ANSI stripped
 * when the outputs have colour, blank lines skipped when there are many, and runs of lines that start alike folded
 * (never lines that look like errors, warnings or failures). Its inline tests are the recorded outputs themselves,
 * with what the drafted stages print today as the expected view, so `tokenless filters test` passes at once and a
 * person edits from there. The draft is checked by parsing it back and running its tests.
 */
import { findFilter } from '../registry.ts';
import { splitLines, stripAnsi } from '../text.ts';
import { escapeRegex } from './budget.ts';
import { filtersFromSpecs } from './build.ts';
import { runInlineTests } from './inline-tests.ts';
import { parseSpecs } from './parse.ts';
import type { FilterSpec } from './schema.ts';
import { applyStages, compileStages } from './stages.ts';

export interface DraftInput {
  readonly output: string;
  readonly failed: boolean;
}

/** Outputs larger than this are not written into the file as tests (the file is for a person to read). */
const TEST_INPUT_MAX_CHARS = 16 * 1024;
const MAX_TESTS = 3;
/** A rule line: one character of `-=_*~#+.` or box drawing, three or more times, and nothing else. It only
 * separates what is around it, so skipping it loses nothing a reader needs. */
const SEPARATOR = '^\\s*([-=_*~#+.\u2500\u2501\u2550])\\1{2,}\\s*$';
const SEPARATOR_REGEX = new RegExp(SEPARATOR);
/** Lines this long (a dumped signature, a minified payload) are cut to TRUNCATE_AT when they carry a tenth of the
 * recorded text; the whole line stays retrievable. */
const LONG_LINE = 400;
const TRUNCATE_AT = 200;
const ALARMING = /error|fail|warn|panic|exception|assert|fatal|denied|traceback/i;

export function draftFilterFile(key: string, outputs: readonly DraftInput[]): string {
  // A built-in filter already views this command: the draft comes after it, so it only adds where the built-in
  // declines, never replaces a view that works.
  const builtIn = findFilter(key.split(' '));
  const spec = draftSpec(key, outputs);
  const tests = pickTests(outputs).map((input, index) => ({ ...input, name: `recorded output ${index + 1}${input.failed ? ' (failed)' : ''}` }));
  const { stages } = compileStages(spec);
  const lines = [
    `# Drafted by \`syt discover\` from ${outputs.length} recorded output(s) of \`${key}\`. Edit the stages, then`,
    '# `tokenless filters test THIS_FILE`; in a project folder it runs once you `tokenless filters trust` it.',
    `description = ${tomlString(`${key}: drafted from recorded outputs`)}`,
    `command = [${[key, `${key} *`].map(tomlString).join(', ')}]`,
  ];
  if (builtIn !== null) lines.push(`priority = "after"  # the built-in ${builtIn.name} filter views it first`);
  if (spec.strip_ansi === true) lines.push('strip_ansi = true');
  if (spec.skip !== undefined) lines.push(`skip = [${spec.skip.map(tomlString).join(', ')}]`);
  if (spec.truncate_lines_at !== undefined) lines.push(`truncate_lines_at = ${spec.truncate_lines_at}`);
  if (spec.collapse !== undefined) {
    lines.push('collapse = [');
    for (const rule of spec.collapse) lines.push(`  { pattern = ${tomlString(rule.pattern)}, label = ${tomlString(rule.label ?? '')} },`);
    lines.push(']');
  }
  for (const test of tests) {
    const expected = stages === null ? test.output : applyStages(stages, test.output);
    lines.push('', '[[test]]', `name = ${tomlString(test.name)}`);
    if (test.failed) lines.push('exit_code = 1');
    lines.push(`input = ${tomlString(test.output)}`, `expected = ${tomlString(expected)}`);
  }
  const text = `${lines.join('\n')}\n`;
  assertValid(text);
  return text;
}

/** The drafted stages and command patterns, before they are written out as TOML. */
export function draftSpec(key: string, outputs: readonly DraftInput[]): FilterSpec {
  const spec: { -readonly [K in keyof FilterSpec]: FilterSpec[K] } = { command: [key, `${key} *`] };
  if (outputs.some((output) => output.output.includes('\x1b') || output.output.includes('\r'))) spec.strip_ansi = true;
  const lines = outputs.flatMap((output) => splitLines(stripAnsi(output.output)));
  if (lines.length === 0) return spec;
  const skip: string[] = [];
  const blank = lines.filter((line) => line.trim() === '').length;
  if (blank / lines.length > 0.1) skip.push('^\\s*$');
  if (lines.filter((line) => SEPARATOR_REGEX.test(line)).length >= 2) skip.push(SEPARATOR);
  if (skip.length > 0) spec.skip = skip;
  const chars = lines.reduce((sum, line) => sum + line.length, 0);
  const long = lines.filter((line) => line.length > LONG_LINE).reduce((sum, line) => sum + line.length, 0);
  if (long > 0 && long / chars >= 0.1) spec.truncate_lines_at = TRUNCATE_AT;
  const collapse = repeatedLeads(lines).map((lead) => ({ pattern: `^${escapeRegex(lead)}(\\s|$)`, label: `{first}  … {count} lines starting "${lead}"` }));
  if (collapse.length > 0) spec.collapse = collapse;
  return spec;
}

/** First words that start at least a fifth of the lines, in runs of three or more somewhere, and look harmless. */
function repeatedLeads(lines: readonly string[]): string[] {
  const leadOf = (line: string): string | null => {
    const match = /^(\S{1,40})\s/.exec(line);
    return match === null ? null : (match[1] ?? null);
  };
  const counts = new Map<string, number>();
  const runs = new Set<string>();
  let run = 0;
  let previous: string | null = null;
  for (const line of lines) {
    const lead = leadOf(line);
    if (lead !== null) counts.set(lead, (counts.get(lead) ?? 0) + 1);
    run = lead !== null && lead === previous ? run + 1 : 1;
    if (lead !== null && run >= 3) runs.add(lead);
    previous = lead;
  }
  return [...counts.entries()]
    .filter(([lead, count]) => runs.has(lead) && count / lines.length >= 0.2 && !ALARMING.test(lead) && !/^\d+$/.test(lead))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([lead]) => lead);
}

/** Up to three recorded outputs, a failing one first when there is one, the shortest that fit. */
function pickTests(outputs: readonly DraftInput[]): DraftInput[] {
  const fitting = outputs.filter((output) => output.output.length <= TEST_INPUT_MAX_CHARS && output.output.trim() !== '');
  const failing = fitting.filter((output) => output.failed).sort((a, b) => a.output.length - b.output.length).slice(0, 1);
  const passing = fitting.filter((output) => !output.failed).sort((a, b) => b.output.length - a.output.length);
  return [...failing, ...passing].slice(0, MAX_TESTS);
}

/** A TOML basic string: JSON's escapes are all valid TOML, and every control character is escaped. */
function tomlString(text: string): string {
  return JSON.stringify(text).replace(/\u007f/g, '\\u007f');
}


function assertValid(text: string): void {
  const specs = parseSpecs(text, 'draft.toml');
  if (!specs.ok) throw new Error(`the drafted filter does not parse: ${specs.problems.map((problem) => problem.message).join('; ')}`);
  const { filters, problems } = filtersFromSpecs(specs.filters, 'draft.toml', 'user', text);
  if (problems.length > 0) throw new Error(`the drafted filter has problems: ${problems.map((problem) => problem.message).join('; ')}`);
  const failed = filters.flatMap(runInlineTests).filter((result) => !result.passed);
  if (failed.length > 0) throw new Error(`the drafted filter fails its own tests: ${failed.map((result) => result.name).join(', ')}`);
}
