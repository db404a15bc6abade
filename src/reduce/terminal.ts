/**
 * Terminal noise, removed the same way by command filters and content compressors: escape sequences and the
 * overwritten states of `\r`-redrawn progress lines. Neither can be put back, so a view that removes them is lossy.
 */
// CSI sequences (colours, cursor moves), OSC sequences (titles, hyperlinks) and two-byte escapes.
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.includes('\x1b') ? text.replace(ANSI, '') : text;
}

/** Removes ANSI escapes and keeps only what a terminal finally shows of `\r`-overwritten progress lines. */
export function cleanTerminalText(text: string): string {
  const plain = stripAnsi(text);
  if (!plain.includes('\r')) return plain;
  return plain
    .split('\n')
    .map((line) => {
      const crlf = line.endsWith('\r');
      const body = crlf ? line.slice(0, -1) : line;
      if (!body.includes('\r')) return line;
      const segments = body.split('\r').filter((s) => s !== '');
      return (segments[segments.length - 1] ?? '') + (crlf ? '\r' : '');
    })
    .join('\n');
}

