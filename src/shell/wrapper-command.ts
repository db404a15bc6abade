import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { LAUNCHER_FILE, launcherCommand } from './launcher.ts';
import { shellQuote } from './quote.ts';

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

/**
 * The program prefix of a rewritten command (and of the hook commands): `/bin/sh …/launch.sh NODE SCRIPT`. The
 * launcher moves the user's NODE_OPTIONS, NODE_V8_COVERAGE… aside before our Node starts, so they act once, on the
 * program `run` starts, and runs the program as typed under limits Node cannot start in. Without the launcher
 * (a single executable, or running from source) it is `selfCommand()`. The last word stays our own script or binary.
 */
export function wrapperCommand(): string {
  const script = process.argv[1];
  if (isSingleExecutable() || script === undefined) return selfCommand();
  const bundle = safeRealpath(isAbsolute(script) ? script : resolve(script));
  const launcher = join(dirname(bundle), LAUNCHER_FILE);
  return existsSync(launcher) ? launcherCommand(launcher, process.execPath, bundle) : selfCommand();
}

export function isSingleExecutable(): boolean {
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
