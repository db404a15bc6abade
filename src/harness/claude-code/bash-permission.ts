/**
 * What Claude Code itself would do with a Bash command, from the rules of the project the client would find: the
 * basis of every allow or ask the pre_tool answer carries (answer.ts).
 */
import { decideBashPermission } from './permissions.ts';
import { ancestorsOf, clientProjectRoot } from './project-root.ts';
import type { PreToolUseInput } from './schemas.ts';
import { permissionSources, projectSettingsFiles } from './paths.ts';
import { loadPermissionRules } from './settings.ts';

export function bashPermissionFor(event: PreToolUseInput, env: Readonly<Record<string, string | undefined>>): ReturnType<typeof decideBashPermission> {
  const command = event.tool_input['command'];
  if (typeof command !== 'string') return { verdict: 'unknown', reason: 'no command' };
  const root = clientProjectRoot(event, env);
  const loaded = loadPermissionRules(permissionSources(root.dir, env));
  let rules = loaded.rules;
  let unknown = loaded.unknown;
  if (root.source === 'guess') {
    // The project may be any ancestor: every ancestor's deny and ask rules apply (its allow rules need not).
    const above = loadPermissionRules(ancestorsOf(root.dir).flatMap(projectSettingsFiles));
    rules = { allow: rules.allow, deny: [...rules.deny, ...above.rules.deny], ask: [...rules.ask, ...above.rules.ask] };
    unknown ??= above.unknown;
  }
  return decideBashPermission(command, { rules, mode: event.permission_mode, projectDir: root.dir, cwd: event.cwd, unknownRules: unknown });
}
