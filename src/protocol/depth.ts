/**
 * Bounded nesting for every JSON document we accept (hook stdin, the HTTP hook server, the gateway). JSON.parse is
 * iterative in V8 and survives any depth, but zod, JSON.stringify and our own walks recurse: a 100k-deep document
 * would end in a stack overflow. Real tool inputs and API requests nest a few dozen levels at most.
 */
export const MAX_JSON_DEPTH = 256;

/** True when arrays and objects nest deeper than limit (the top level counts as 1). Iterative: never recurses itself. */
export function nestsDeeperThan(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop() ?? 1;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child === 'object' && child !== null) {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

export const tooDeep = (limit: number = MAX_JSON_DEPTH): string => `input nests deeper than ${limit} levels`;
