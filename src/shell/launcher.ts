import { shellQuote } from './quote.ts';

/** The sh launcher the build puts next to the CLI bundle (source: commands/launch.sh). */
export const LAUNCHER_FILE = 'launch.sh';

/**
 * `/bin/sh LAUNCHER NODE BUNDLE`, quoted: how a rewritten command (and a hook command) starts our Node so that the
 * user's NODE_OPTIONS, NODE_V8_COVERAGE… act on the program `run` starts and not on us too. The bundle stays the last
 * word, which is how the rewrite recognises a call to ourselves.
 */
export function launcherCommand(launcher: string, node: string, bundle: string): string {
  return ['/bin/sh', launcher, node, bundle].map(shellQuote).join(' ');
}
