/**
 * Is an agent's program on this machine? The variable naming its binary wins (as in doctor's version check); else the
 * first executable `bin` on PATH. Only looks: nothing is run, so `--harness all` costs no agent start-up.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { AgentClient } from '../../src/harness/types.ts';

export function findProgram(client: AgentClient, env: Readonly<Record<string, string | undefined>>): string | null {
  const named = env[client.variable];
  if (named !== undefined && named !== '') return isAbsolute(named) ? (isExecutable(named) ? named : null) : onPath(named, env);
  return onPath(client.bin, env);
}

function onPath(bin: string, env: Readonly<Record<string, string | undefined>>): string | null {
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, bin);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
