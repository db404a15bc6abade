/** What the CLI knows about where it prints: the name it was invoked under and how wide its terminal is. */
import { basename } from 'node:path';

/** `syt` or `tokenless`, as invoked (a symlink or copy named syt*, or the single binary's first argument). */
export function programName(argv1: string | undefined = process.argv[1]): 'syt' | 'tokenless' {
  return basename(argv1 ?? 'tokenless').startsWith('syt') ? 'syt' : 'tokenless';
}

/**
 * Advice written in src/ names our commands as `syt …` (pure code does not know how it was started); what prints
 * names them as the person typed them.
 */
export function asInvoked(text: string, name: 'syt' | 'tokenless' = programName()): string {
  return text.replace(/`(?:syt|tokenless) /g, `\`${name} `);
}

/** Narrowest width a report is laid out for: below it nothing useful fits on a line anyway. */
const MIN_COLUMNS = 40;
/** Width when stdout is not a terminal and COLUMNS is unset: what a pager or a log viewer most often shows. */
export const PIPE_COLUMNS = 80;

/** The width to lay reports out for: `COLUMNS`, else the terminal's width, else 80 (piped). */
export function terminalWidth(env: Readonly<Record<string, string | undefined>> = process.env, stream: { isTTY?: boolean; columns?: number } = process.stdout): number {
  const fromEnv = Number.parseInt(env['COLUMNS'] ?? '', 10);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return Math.max(MIN_COLUMNS, fromEnv);
  if (stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0) return Math.max(MIN_COLUMNS, stream.columns);
  return PIPE_COLUMNS;
}
