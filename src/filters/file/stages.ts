/**
 * The stage pipeline of a filter file, pure: compiled patterns in, text out. Stages run in STAGE_ORDER whatever
 * order the file lists them. Nothing here decides whether the view is shown or marks it: the filter's candidate
 * goes through the same `pays`, stash and retrieval line as every built-in.
 */
import { cleanTerminalText, joinLines, splitLines } from '../text.ts';
import { compilePattern } from './budget.ts';
import type { Stages } from './schema.ts';

export interface CompiledStages {
  readonly stripAnsi: boolean;
  readonly replace: readonly { readonly regex: RegExp; readonly output: string }[];
  readonly section: { readonly start: RegExp; readonly end: RegExp | null } | null;
  readonly skip: readonly RegExp[];
  readonly keep: readonly RegExp[];
  readonly collapse: readonly { readonly regex: RegExp; readonly label: string; readonly min: number }[];
  readonly group: { readonly regex: RegExp; readonly maxPerGroup: number } | null;
  readonly truncateAt: number | null;
  readonly head: number | null;
  readonly tail: number | null;
  readonly onEmpty: string | null;
}

export interface PatternProblem {
  /** Where in the filter, e.g. `skip[2]`. */
  readonly field: string;
  readonly pattern: string;
  readonly reason: string;
}

const DEFAULT_COLLAPSE_LABEL = '{first}  … {count} lines like this';

/** Compiles one stage set; every pattern that cannot be used is reported, and then no stages come back. */
export function compileStages(stages: Stages, prefix = ''): { stages: CompiledStages | null; problems: PatternProblem[] } {
  const problems: PatternProblem[] = [];
  const regex = (field: string, source: string): RegExp => {
    const compiled = compilePattern(source);
    if (compiled.ok) return compiled.regex;
    problems.push({ field: prefix + field, pattern: source, reason: compiled.reason });
    return /$^/;
  };
  const compiled: CompiledStages = {
    stripAnsi: stages.strip_ansi ?? false,
    replace: (stages.replace ?? []).map((rule, i) => ({ regex: regex(`replace[${i}].pattern`, rule.pattern), output: rule.output })),
    section:
      stages.section === undefined
        ? null
        : { start: regex('section.start', stages.section.start), end: stages.section.end === undefined ? null : regex('section.end', stages.section.end) },
    skip: (stages.skip ?? []).map((source, i) => regex(`skip[${i}]`, source)),
    keep: (stages.keep ?? []).map((source, i) => regex(`keep[${i}]`, source)),
    collapse: (stages.collapse ?? []).map((rule, i) => ({
      regex: regex(`collapse[${i}].pattern`, rule.pattern),
      label: rule.label ?? DEFAULT_COLLAPSE_LABEL,
      min: Math.max(2, rule.min ?? 3),
    })),
    group: stages.group === undefined ? null : { regex: regex('group.pattern', stages.group.pattern), maxPerGroup: stages.group.max_per_group ?? 10 },
    truncateAt: stages.truncate_lines_at ?? null,
    head: stages.head_lines ?? null,
    tail: stages.tail_lines ?? null,
    onEmpty: stages.on_empty ?? null,
  };
  return { stages: problems.length === 0 ? compiled : null, problems };
}

/** Runs the stages over one stream's text. */
export function applyStages(stages: CompiledStages, text: string): string {
  let lines = splitLines(stages.stripAnsi ? cleanTerminalText(text) : text);
  lines = lines.map((line) => replaceLine(stages.replace, line));
  if (stages.section !== null) lines = section(lines, stages.section.start, stages.section.end);
  if (stages.skip.length > 0) lines = lines.filter((line) => !stages.skip.some((regex) => regex.test(line)));
  if (stages.keep.length > 0) lines = lines.filter((line) => stages.keep.some((regex) => regex.test(line)));
  for (const rule of stages.collapse) lines = collapse(lines, rule);
  if (stages.group !== null) lines = group(lines, stages.group.regex, stages.group.maxPerGroup);
  if (stages.truncateAt !== null) lines = lines.map((line) => truncate(line, stages.truncateAt ?? line.length));
  lines = headTail(lines, stages.head, stages.tail);
  if (stages.onEmpty !== null && lines.every((line) => line.trim() === '')) return stages.onEmpty === '' ? '' : `${stages.onEmpty.replace(/\n$/, '')}\n`;
  return joinLines(lines);
}

/** `{0}` is the whole match, `{1}`… its groups: the line becomes the output, as in tokf. */
function replaceLine(rules: CompiledStages['replace'], line: string): string {
  let current = line;
  for (const rule of rules) {
    const match = rule.regex.exec(current);
    if (match === null) continue;
    current = rule.output.replace(/\{(\d+)\}/g, (_, index: string) => match[Number(index)] ?? '');
  }
  return current;
}

/** From the first line matching `start` to the next matching `end` (both kept); everything when `start` never
 * matches, since a filter that cannot find its section must not hide the output. */
function section(lines: readonly string[], start: RegExp, end: RegExp | null): string[] {
  const from = lines.findIndex((line) => start.test(line));
  if (from === -1) return [...lines];
  if (end === null) return lines.slice(from);
  const to = lines.findIndex((line, index) => index > from && end.test(line));
  return lines.slice(from, to === -1 ? lines.length : to + 1);
}

function collapse(lines: readonly string[], rule: CompiledStages['collapse'][number]): string[] {
  const result: string[] = [];
  for (let i = 0; i < lines.length; ) {
    let end = i;
    while (end < lines.length && rule.regex.test(lines[end] ?? '')) end++;
    if (end - i >= rule.min) {
      const first = lines[i] ?? '';
      const last = lines[end - 1] ?? '';
      result.push(rule.label.replaceAll('{count}', String(end - i)).replaceAll('{first}', first).replaceAll('{last}', last));
      i = end;
    } else {
      result.push(lines[i] ?? '');
      i++;
    }
  }
  return result;
}

/** Lines whose first capture is the same key are printed together where that key first appears, at most
 * `maxPerGroup` of them and a count of the rest; other lines keep their place. */
function group(lines: readonly string[], regex: RegExp, maxPerGroup: number): string[] {
  const keyOf = (line: string): string | null => {
    const match = regex.exec(line);
    return match === null ? null : (match[1] ?? match[0]);
  };
  const members = new Map<string, string[]>();
  for (const line of lines) {
    const key = keyOf(line);
    if (key !== null) members.set(key, [...(members.get(key) ?? []), line]);
  }
  const result: string[] = [];
  const printed = new Set<string>();
  for (const line of lines) {
    const key = keyOf(line);
    if (key === null) {
      result.push(line);
      continue;
    }
    if (printed.has(key)) continue;
    printed.add(key);
    const all = members.get(key) ?? [];
    result.push(...all.slice(0, maxPerGroup));
    if (all.length > maxPerGroup) result.push(`… ${all.length - maxPerGroup} more for ${key}`);
  }
  return result;
}

function truncate(line: string, at: number): string {
  return line.length <= at ? line : `${line.slice(0, at - 1)}…`;
}

function headTail(lines: readonly string[], head: number | null, tail: number | null): string[] {
  if (head === null && tail === null) return [...lines];
  const first = head ?? 0;
  const last = tail ?? 0;
  // One line replaced by a line saying so would save nothing.
  if (lines.length <= first + last + 1) return [...lines];
  const omitted = lines.length - first - last;
  return [...lines.slice(0, first), `… ${omitted} lines …`, ...lines.slice(lines.length - last)];
}
