/**
 * PreToolUse on Claude Code's Skill tool: the context budget's tiered overage response to loading a skill. Within
 * budget nothing is said; up to 20% over the call goes ahead with a note of the budget (additionalContext, which
 * reaches the model after the result); above that it is denied with a reason naming the budget, what is loaded and
 * what to compact first. Figures use the fast estimate (the hook must not load the tokenizer's tables); `syt skills`
 * prints exact counts. Imported only when a Skill call arrives, so the Bash path does not load it.
 */
import { readFileSync } from 'node:fs';
import { loadBudgetSettings, pickProfile } from '../../budget/settings.ts';
import { BUILTIN_PROFILES } from '../../budget/profiles.ts';
import type { AnswerContext, HarnessAnswer } from '../../harness/types.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { gateSkill, LISTING_HEADER } from '../../skills/budget.ts';
import { alwaysLoaded, costedSkills, skillsLoadedIn } from '../../skills/claude-code.ts';
import { estimateTokens } from '../../tokens/estimate.ts';
import type { PreToolUseInput } from './schemas.ts';

export function answerSkillCall(event: PreToolUseInput, runtime: Runtime, options: AnswerContext): HarnessAnswer {
  const name = event.tool_input['skill'];
  if (typeof name !== 'string') return { answer: null, note: 'Skill call without a skill name' };
  try {
    return gate(event, name, runtime, options);
  } catch (error) {
    // The budget is advice: when it cannot be worked out, the skill loads as it would without us.
    return { answer: null, note: `skill budget unavailable: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function gate(event: PreToolUseInput, name: string, runtime: Runtime, options: AnswerContext): HarnessAnswer {
  const projectDir = options.env['CLAUDE_PROJECT_DIR'] ?? event.cwd ?? process.cwd();
  const settings = loadBudgetSettings(runtime.config.dataDir);
  const profile = pickProfile(settings) ?? BUILTIN_PROFILES.agentic;
  const gate = gateSkill(
    {
      always: alwaysLoaded(projectDir, estimateTokens),
      skills: costedSkills(projectDir, options.env, estimateTokens),
      loaded: event.transcript_path === undefined ? [] : skillsLoadedIn(readText(event.transcript_path)),
      profile,
      contextWindow: settings.contextWindow,
    },
    name.replace(/^\//u, ''),
    estimateTokens(LISTING_HEADER),
    true,
  );
  switch (gate.response) {
    case 'pass':
      return { answer: null, note: '' };
    case 'note':
      return { answer: { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: gate.text } }, note: `skill ${name}: ${gate.level}` };
    case 'refuse':
      return { answer: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: gate.text } }, note: `skill ${name}: refused` };
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
