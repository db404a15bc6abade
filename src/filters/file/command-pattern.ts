/**
 * Command patterns of filter files, read the way people write allow rules and tokf's `command`: words compared one
 * by one, `*` (any run of characters) and `?` (one character) inside a word, and a lone `*` as the last word for
 * "any further arguments, or none". A program without a slash is compared by basename, so `mise run test` also
 * matches `/usr/local/bin/mise run test`; one with a slash (`./scripts/*.sh`) is compared as a path. `mise run test` alone matches only that exact command line.
 */

export interface CommandPattern {
  readonly source: string;
  readonly words: readonly string[];
  /** Ends with a lone `*`. */
  readonly openEnded: boolean;
}

export function parseCommandPattern(source: string): CommandPattern {
  const words = source.trim().split(/\s+/).filter((word) => word !== '');
  const openEnded = words.length > 1 && words[words.length - 1] === '*';
  return { source, words: openEnded ? words.slice(0, -1) : words, openEnded };
}

export function matchesCommand(pattern: CommandPattern, argv: readonly string[]): boolean {
  const { words } = pattern;
  if (words.length === 0 || argv.length < words.length) return false;
  if (!pattern.openEnded && argv.length !== words.length) return false;
  return words.every((word, index) => {
    const arg = argv[index] ?? '';
    // A program pattern with a slash names a path (`./scripts/*.sh`); without one it names the program anywhere.
    return globWord(word, index === 0 && !word.includes('/') ? basename(arg) : arg);
  });
}

function basename(program: string): string {
  const slash = program.lastIndexOf('/');
  return slash === -1 ? program : program.slice(slash + 1);
}

/** `*` and `?` wildcards over one word, iteratively (no regex, so no backtracking blow-up on long arguments). */
export function globWord(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    const char = pattern[p];
    if (char === '?' || (char !== undefined && char !== '*' && char === text[t])) {
      p++;
      t++;
    } else if (char === '*') {
      star = p++;
      resume = t;
    } else if (star !== -1) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}
