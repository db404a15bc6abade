import { realpathSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { shellQuote } from '../src/shell/quote.ts';

/**
 * How anything outside this process calls us back (rewritten commands, the hook commands `syt init` registers):
 * absolute paths only, so the agent's PATH and aliases cannot change which program runs. A single executable calls
 * itself; the npm build calls node on the bundle explicitly (no `#!/usr/bin/env node` lookup, no npx).
 */
export function selfCommand(): string {
  if (isSingleExecutable()) return shellQuote(realpathSync(process.execPath));
  const script = process.argv[1];
  if (script === undefined) return shellQuote(process.execPath);
  const absolute = isAbsolute(script) ? script : resolve(script);
  return `${shellQuote(process.execPath)} ${shellQuote(safeRealpath(absolute))}`;
}

/** The program prefix of a rewritten command: this same program, as `selfCommand()` gives it. */
export function wrapperCommand(): string {
  return selfCommand();
}

function isSingleExecutable(): boolean {
  try {
    // node:sea exists from Node 20.12; isSea() is true only inside a single executable application.
    const sea = process.getBuiltinModule?.('node:sea') as { isSea?: () => boolean } | undefined;
    return sea?.isSea?.() === true;
  } catch {
    return false;
  }
}

function safeRealpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
