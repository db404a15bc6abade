/**
 * Where Copilot CLI 1.0.102 reads hook files: every `*.json` in `$COPILOT_HOME/hooks` (default `~/.copilot/hooks`;
 * `--config-dir` moves it for one run) and, for a repository, `<git root>/.github/hooks`. Ours is one file of its
 * own in that directory, so no file of the person's is ever edited.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Scope } from '../types.ts';

type Env = Readonly<Record<string, string | undefined>>;

export const HOOKS_FILE = 'save-your-tokens.json';

export function copilotHome(env: Env): string {
  const home = env['COPILOT_HOME'];
  return home !== undefined && home !== '' ? home : join(env['HOME'] ?? homedir(), '.copilot');
}

export function copilotHooksPath(scope: Scope, projectDir: string, env: Env): string {
  return scope === 'user' ? join(copilotHome(env), 'hooks', HOOKS_FILE) : join(projectDir, '.github', 'hooks', HOOKS_FILE);
}
