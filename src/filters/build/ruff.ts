/**
 * Ruff's default `full` output format (0.5 and later): each diagnostic is a `CODE [*] message` header, a
 * ` --> path:line:col` location, a code frame of the source around it, `help:` lines and, for a fix, a preview of the
 * changed source. The frame and the preview repeat source the location already names (as tsc's pretty frames do);
 * the code, message, location and help are what the agent acts on.
 */
import type { Diagnostic } from './diagnostics.ts';

/** `F401 [*] message`, or a syntax error (`invalid-syntax: message`, `SyntaxError: message`). */
export const RUFF_HEADER = /^([A-Z]+\d+) (?:\[\*\] )?(\S.*)$|^(invalid-syntax|SyntaxError): (\S.*)$/;
export const RUFF_ARROW = /^ *--> (.+?):(\d+):(\d+)$/;
/** A frame or fix-preview line: a line-number gutter then `|`, `-` or `+`, or the preview's separator rule. */
const FRAME = /^ *\d* *[|+-](?: |$)|^-{20,}$/;
/** What a diagnostic says besides its message: `help:`, `note:`, `info:`, `warning:`. */
const ASIDE = /^(?:help|note|info|warning): \S/;

export interface RuffDiagnostics {
  readonly diagnostics: readonly Diagnostic[];
  /** Lines that are not part of a diagnostic (`Found 37 errors.`, `[*] 11 fixable …`), in order. */
  readonly other: readonly string[];
}

/** The diagnostics of a full-format report, or null when the lines hold none. */
export function ruffFullDiagnostics(lines: readonly string[]): RuffDiagnostics | null {
  const diagnostics: Diagnostic[] = [];
  const other: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const header = RUFF_HEADER.exec(line);
    const arrow = header === null ? null : RUFF_ARROW.exec(lines[i + 1] ?? '');
    if (header === null || arrow === null) {
      if (line.trim() !== '') other.push(line);
      continue;
    }
    const more: string[] = [];
    let end = i + 2;
    for (; end < lines.length; end++) {
      const next = lines[end] ?? '';
      if (RUFF_HEADER.test(next) && RUFF_ARROW.test(lines[end + 1] ?? '')) break;
      if (ASIDE.test(next)) more.push(next);
      else if (next.trim() !== '' && !FRAME.test(next)) break;
    }
    diagnostics.push({
      file: arrow[1] ?? '',
      location: `${arrow[2] ?? ''}:${arrow[3] ?? ''}`,
      severity: 'error',
      code: header[1] ?? header[3] ?? '',
      message: header[2] ?? header[4] ?? '',
      more,
    });
    i = end - 1;
  }
  return diagnostics.length === 0 ? null : { diagnostics, other };
}
