import type * as z from 'zod/mini';
import { describeIssues } from '../src/protocol/parse.ts';
import { usageError } from './errors.ts';

/** Reads commander's option bag through a schema, so command bodies never cast. */
export function parseOptions<T>(schema: z.ZodMiniType<T>, raw: unknown, command: string): T {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw usageError(`tokenless ${command}: ${describeIssues(parsed.error)}`);
  return parsed.data;
}
