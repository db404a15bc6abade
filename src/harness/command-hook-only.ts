/**
 * What a harness declares when all we register is one command hook in its settings file (Gemini CLI, Codex CLI):
 * none of the budget's session events (those are Claude Code's), no HTTP hooks (none measured; `--http` and `serve`
 * refuse it), a project file that is the project's to commit or not (init adds no git rule), no earlier install to
 * move, nothing to add after init.
 */
import type { Harness } from './types.ts';

export const COMMAND_HOOK_ONLY = {
  answerSession: null,
  privateProjectSettings: false,
  legacySettingsPaths: () => [],
  httpHooks: false,
  nextSteps: () => [],
} as const satisfies Pick<Harness, 'answerSession' | 'privateProjectSettings' | 'legacySettingsPaths' | 'httpHooks' | 'nextSteps'>;
