/**
 * OpenCode 1.18.33 behind the harness seam. Its events never reach `tokenless hook` in a dialect of their own: our
 * plugin (plugin-source.ts) runs inside OpenCode's process and sends the native post_tool envelope, so `answer` has
 * nothing to answer. No command is rewritten (docs/agents/opencode.md: OpenCode's rules judge the rewritten command).
 */
import { COMMAND_HOOK_ONLY, privateHookStep } from '../command-hook-only.ts';
import type { Harness } from '../types.ts';
import { CLIENT, opencodeOurFiles, opencodeDoctor } from './doctor.ts';
import { opencodePluginPath } from './install.ts';

export const harness: Harness = {
  name: 'opencode',
  title: 'OpenCode',
  answer: (lifecycle) => Promise.resolve({ error: `lifecycle ${lifecycle}: OpenCode's plugin sends the native protocol, not an OpenCode event` }),
  ...COMMAND_HOOK_ONLY,
  nextSteps: (path, _target, scope, name) => [
    `Installed: an OpenCode plugin at ${path}. Start a new OpenCode session to load it.`,
    privateHookStep(scope, name, 'opencode'),
    'What changes: the output of a bash call of at least 1 KiB is replaced by a view the model can retrieve in full; commands run exactly as typed, so your permission rules decide as before.',
    `Check the installation: ${name} doctor --harness opencode`,
  ],
  settingsPath: opencodePluginPath,
  installer: () => import('./install.ts'),
  client: CLIENT,
  ourFiles: opencodeOurFiles,
  doctor: opencodeDoctor,
};
