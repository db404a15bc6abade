/** The path P a `diff --git a/P b/P` header names when both sides agree, else null (renames, quoted paths, not a
 * header). Both the git diff filter and the lossless header compaction read headers through this one parse. */
export function diffHeaderPath(line: string): string | null {
  if (!line.startsWith('diff --git a/')) return null;
  const rest = line.slice('diff --git a/'.length);
  // `P b/P`: P is the first half of the rest, when both halves agree.
  const half = (rest.length - ' b/'.length) / 2;
  if (!Number.isInteger(half)) return null;
  const path = rest.slice(0, half);
  return rest === `${path} b/${path}` ? path : null;
}
