/**
 * Pi (`@mariozechner/pi-coding-agent` 0.73.1) behind the harness seam. Its events never reach `tokenless hook` in a
 * dialect of their own: our extension (extension-source.ts) runs inside Pi's process and sends the native post_tool
 * envelope, so `answer` has nothing to answer. No command is rewritten (docs/agents/pi.md: a `tool_call` rewrite is
 * what the gates of extensions loaded after ours would judge).
 */
import { COMMAND_HOOK_ONLY, privateHookStep } from '../command-hook-only.ts';
import type { Harness } from '../types.ts';
import { CLIENT, piOurFiles, piDoctor } from './doctor.ts';
import { piExtensionPath } from './install.ts';

export const harness: Harness = {
  name: 'pi',
  title: 'Pi',
  answer: (lifecycle) => Promise.resolve({ error: `lifecycle ${lifecycle}: Pi's extension sends the native protocol, not a Pi event` }),
  ...COMMAND_HOOK_ONLY,
  nextSteps: (path, _target, scope, name) => [
    `Installed: a Pi extension at ${path}. Start a new Pi session (or /reload) to load it.`,
    privateHookStep(scope, name, 'pi'),
    'What changes: the result of a bash call of at least 1 KiB is replaced by a view the model can retrieve in full (exit code and error flag kept); commands run exactly as typed, so every extension that gates tool calls decides as before.',
    `Check the installation: ${name} doctor --harness pi`,
  ],
  settingsPath: piExtensionPath,
  installer: () => import('./install.ts'),
  client: CLIENT,
  ourFiles: piOurFiles,
  doctor: piDoctor,
};
