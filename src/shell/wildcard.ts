/**
 * `*` wildcards as Claude Code's permission rules use them (`Bash(git * --stat)`): `*` matches any run of characters,
 * newlines included, and everything else matches itself. Matched without a regular expression: a rule comes from a
 * settings file any cloned repository can ship, and `a*a*a*a*a*a*a*a*b` as a backtracking regex takes exponential
 * time on a 200-character command, on the hook's hot path. This greedy matcher backtracks only to the last `*`,
 * so it takes at most pattern × text steps.
 */
export function wildcardMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] === '*') {
      star = p;
      p += 1;
      resume = t;
    } else if (p < pattern.length && pattern[p] === text[t]) {
      p += 1;
      t += 1;
    } else if (star !== -1) {
      // Let the last `*` take one more character and try the rest of the pattern again from there.
      p = star + 1;
      resume += 1;
      t = resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p += 1;
  return p === pattern.length;
}
