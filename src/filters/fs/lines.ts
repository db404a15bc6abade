import { splitLines, stripAnsi } from '../text.ts';

/** A listing's lines as a parser should see them: colour codes and CRLF endings gone, and whether the last line was
 * cut off (no final newline: output truncated by `head -c`, a size cap or a killed command). */
export interface ListingLines {
  readonly lines: readonly string[];
  /** The last line when the text does not end with a newline, else null; it is also the last of `lines`. */
  readonly truncated: string | null;
}

export function listingLines(text: string): ListingLines {
  const lines = splitLines(text).map((line) => stripAnsi(line.endsWith('\r') ? line.slice(0, -1) : line));
  const truncated = text !== '' && !text.endsWith('\n') ? (lines[lines.length - 1] ?? null) : null;
  return { lines, truncated };
}

/**
 * A diagnostic a tool or the shell prints among (or before) a listing when stderr is merged into it: `ls: cannot
 * access 'x': …`, `find: '/p': Permission denied`, `bash: line 1: warning: setlocale: …`, `grep: x: binary file
 * matches`, `warning: …`. Such lines are kept verbatim and never taken for entries.
 */
export function isDiagnostic(line: string, tools: readonly string[]): boolean {
  const m = /^([A-Za-z][\w.+-]*): /.exec(line);
  if (m === null) return /^(?:warning|error|fatal)(?:\[\w+\])?: /i.test(line);
  const head = (m[1] ?? '').toLowerCase();
  return tools.includes(head) || ['bash', 'sh', 'zsh', 'dash', 'env', 'sudo', 'warning', 'error', 'fatal'].includes(head);
}
