/**
 * How many of a project's frequent shell commands pre_tool would rewrite under the current permission rules, and the
 * allow rules that would let the others be filtered without a dialog. The same two decisions the hook makes: does a
 * filter wrap the command (planRewrite), and would Claude Code run the original without asking (decideBashPermission).
 */
import { decideBashPermission, type PermissionContext } from '../harness/claude-code/permissions.ts';
import { planRewrite } from '../rewrite/index.ts';

/** silent: rewritten, no dialog. dialog: rewritten line shown in the permission dialog (terminal UI; left alone in -p). */
export type Coverage = 'silent' | 'dialog' | 'asked' | 'unfiltered';

export interface CommandCoverage {
  readonly command: string;
  readonly runs: number;
  readonly coverage: Coverage;
  /** For `dialog`: the rule for permissions.allow that makes it silent. */
  readonly allowRule?: string;
}

export function rewriteCoverage(
  commands: readonly string[],
  context: Omit<PermissionContext, 'mode'>,
  isWrappable: (argv: readonly string[]) => boolean,
  top = 10,
): CommandCoverage[] {
  const runs = new Map<string, number>();
  for (const command of commands) runs.set(command.trim(), (runs.get(command.trim()) ?? 0) + 1);
  return [...runs.entries()]
    .filter(([command]) => command !== '' && !/(^|\/)(tokenless|syt)\s|cli\.cjs'?\s+run\s/u.test(command))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, top)
    .map(([command, count]) => {
      const plan = planRewrite(command, { wrapperCommand: 'tokenless', attributionEnv: {}, isWrappable, exclude: [] });
      if (plan.command === null) return { command, runs: count, coverage: 'unfiltered' };
      const permission = decideBashPermission(command, { ...context, mode: 'default' });
      if (permission.verdict === 'allow') return { command, runs: count, coverage: 'silent' };
      if (permission.verdict === 'asks') return { command, runs: count, coverage: 'dialog', ...(permission.allowRule === undefined ? {} : { allowRule: permission.allowRule }) };
      return { command, runs: count, coverage: 'asked' };
    });
}
