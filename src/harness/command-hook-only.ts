/**
 * What a harness declares when all we register is one command hook in its settings file (Gemini CLI, Codex CLI):
 * none of the budget's session events (those are Claude Code's), no HTTP hooks (none measured; `--http` and `serve`
 * refuse it), a project file that names this machine's paths once our hook is in it (init makes git ignore it, as it
 * does Claude Code's local file), no earlier install to move. Each harness says its own next steps.
 */
import type { Harness } from './types.ts';

export const COMMAND_HOOK_ONLY = {
  answerSession: null,
  privateProjectSettings: true,
  legacySettingsPaths: () => [],
  httpHooks: false,
} as const satisfies Pick<Harness, 'answerSession' | 'privateProjectSettings' | 'legacySettingsPaths' | 'httpHooks'>;

/** The paragraph every command-hook harness shares about where its project hook lives and how to undo it. */
export function privateHookStep(scope: 'project' | 'user', name: string, harness: string): string {
  const project = scope === 'project' ? "The hook names this machine's paths, so git is told to ignore this file (.git/info/exclude, private to this clone): everyone on the project runs the init once. " : '';
  return `${project}${name} init --harness ${harness} --uninstall removes exactly what was added.`;
}
