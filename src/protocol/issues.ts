import type * as z from 'zod/mini';

/** One line naming at most three offending fields: hook errors go to a single stderr line. */
export function describeIssues(error: z.core.$ZodError): string {
  const parts = error.issues.slice(0, 3).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
    const expected = 'expected' in issue && typeof issue.expected === 'string' ? ` (expected ${issue.expected})` : '';
    return `${path}: ${issue.code}${expected}`;
  });
  const more = error.issues.length > 3 ? ` and ${error.issues.length - 3} more` : '';
  return parts.join('; ') + more;
}
