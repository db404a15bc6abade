// The argv `tokenless run` would receive for a single command line, for offline filtering.

import { parseShell } from '../shell/parse.ts';
import { resolveWrappers, staticPrefix } from '../permissions/shell-state.ts';

/**
 * The program and arguments of a command line made of exactly one simple command whose words are all static,
 * after its env prefix and the command wrappers pre_tool sees through (`timeout 60 npm test` -> `npm test`);
 * null for anything else. Redirects are ignored: they do not change what the program prints.
 */
export function staticArgv(command: string): string[] | null {
  const parsed = parseShell(command);
  if (parsed.kind !== 'parsed') return null;
  const [chain, ...moreChains] = parsed.script.list.items;
  const [pipeline, ...morePipelines] = chain?.pipelines ?? [];
  const [simple, ...moreCommands] = pipeline?.commands ?? [];
  if (moreChains.length + morePipelines.length + moreCommands.length > 0 || simple?.kind !== 'simple') return null;
  const resolved = resolveWrappers(simple.words);
  if (!resolved.ok) return null;
  const argv = staticPrefix(simple.words, resolved.programIndex);
  return argv.length > 0 && argv.length === simple.words.length - resolved.programIndex ? argv : null;
}
