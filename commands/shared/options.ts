import * as z from 'zod/mini';
import { usageError } from './errors.ts';
import { programName } from './terminal.ts';

/** A TCP port as typed: 0 (any free port) to 65535, checked with the other options so the error names the value. */
export const portOption = z.string().check(z.refine((value) => /^\d{1,5}$/.test(value) && Number(value) <= 65_535, 'a port number (0-65535)'));

/** A number of 0 or more as typed (a fraction allowed): `--max "abc": expected a number of 0 or more`. */
export const nonNegativeOption = z.string().check(z.refine((value) => value.trim() !== '' && Number.isFinite(Number(value)) && Number(value) >= 0, 'a number of 0 or more'));

/** Reads commander's option bag through a schema, so command bodies never cast. */
export function parseOptions<T>(schema: z.ZodMiniType<T>, raw: unknown, command: string): T {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw usageError(`${programName()} ${command}: ${describeOptionIssues(parsed.error, raw)}`);
  return parsed.data;
}

/** `--format "xml": expected one of table, json, csv`: the option as typed, the value given, what is allowed. */
export function describeOptionIssues(error: z.core.$ZodError, raw: unknown): string {
  const bag = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const key = String(issue.path[0] ?? '');
      const flag = key === '' ? 'options' : `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
      const given = bag[key];
      return `${flag}${given === undefined ? '' : ` ${JSON.stringify(given)}`}: expected ${allowed(issue)}`;
    })
    .join('; ');
}

function allowed(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_value') return `one of ${issue.values.map(String).join(', ')}`;
  if (issue.code === 'too_small') return 'a non-empty value';
  if (issue.code === 'invalid_type') return `a ${issue.expected}`;
  // Checks carry their own wording (`a whole number`); zod/mini's default text says only "Invalid input".
  return issue.message !== '' && !/^Invalid/.test(issue.message) ? issue.message : issue.code.replaceAll('_', ' ');
}

/** The options were checked by their schema (nonNegativeOption); absent means the default. */
export const numberOption = (raw: string | undefined, fallback: number): number => (raw === undefined ? fallback : Number(raw));
