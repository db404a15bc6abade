/** Stack frames an agent fixing its own code does not need: dependencies and the runtime's internals. The first
 * frames in the project's own files are what locate a failure, and they are always kept. */
export function isDependencyFrame(line: string): boolean {
  return /^\s*at .*(?:node_modules[\\/]|\(node:|at node:|\(internal\/|at internal\/|\(<anonymous>\)$)/.test(line);
}

/** Drops dependency frames and the `----` separators left with nothing after them. */
export function dropDependencyFrames(lines: readonly string[]): string[] {
  const kept = lines.filter((line) => !isDependencyFrame(line));
  return kept.filter((line, i) => !(/^\s+-{4}$/.test(line) && !/^\s*at /.test(kept[i + 1] ?? '')));
}

/** Collapses runs of blank lines to one and trims blank lines at both ends. */
export function tidyBlankLines(lines: readonly string[]): string[] {
  const result = lines.map(shortenRules).filter((line, i) => line.trim() !== '' || (lines[i - 1] ?? '').trim() !== '');
  while (result.length > 0 && (result[0] ?? '').trim() === '') result.shift();
  while (result.length > 0 && (result[result.length - 1] ?? '').trim() === '') result.pop();
  return result;
}

/** Long rules (`=====`, `-----`, `_____ name _____`, vitest's `⎯⎯⎯`) shrink to three characters: their length
 * carries nothing, but every character costs a token. */
export function shortenRules(line: string): string {
  if (!/^\s*([-=_\u23af\u2500\u2501*#~])\1{7,}/.test(line)) return line;
  return line.replace(/([-=_\u23af\u2500\u2501*#~])\1{7,}/g, '$1$1$1');
}
