/** `syt doctor --harness copilot`: is our hooks file installed, does its command still reach our binary, which Copilot? */
import { existsSync, readFileSync } from 'node:fs';
import { missingPath, testedVersionCheck } from '../hook-command.ts';
import type { DoctorCheck, DoctorProbes } from '../types.ts';
import { ourHookCommands } from './install.ts';
import { copilotHooksPath } from './settings.ts';

/** The version whose hook payloads docs/agents/copilot.md records. */
export const TESTED_COPILOT_CLI = '1.0.102';

type Env = Readonly<Record<string, string | undefined>>;

export const CLIENT = { name: 'copilot', title: 'GitHub Copilot CLI', variable: 'TOKENLESS_COPILOT_BIN', bin: 'copilot', tested: TESTED_COPILOT_CLI };

/** Our hooks file, in either scope: its name is ours, so one there is ours or a broken install. */
export function copilotOurFiles(projectDir: string, env: Env): Promise<string[]> {
  return Promise.resolve((['user', 'project'] as const).map((scope) => copilotHooksPath(scope, projectDir, env)).filter((path) => existsSync(path)));
}

export function copilotDoctor(projectDir: string, env: Env, probes: DoctorProbes): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const found: string[] = [];
  for (const path of (['user', 'project'] as const).map((scope) => copilotHooksPath(scope, projectDir, env))) {
    if (!existsSync(path)) continue;
    const commands = ourHookCommands(readFileSync(path, 'utf8'));
    if (commands === null) {
      checks.push({ name: 'copilot-hooks', status: 'fail', detail: `${path} is not a hooks file of ours: move it away and run \`syt init --harness copilot --scope user\`` });
      continue;
    }
    found.push(path);
    for (const command of commands) {
      const missing = missingPath(command);
      if (missing !== undefined) checks.push({ name: 'copilot-binary', status: 'fail', detail: `${missing} (from the hook command) is missing: run \`syt init --harness copilot --scope user\` again` });
    }
  }
  checks.unshift(
    found.length === 0
      ? { name: 'copilot-hooks', status: 'fail', detail: 'no save-your-tokens hooks file in ~/.copilot/hooks/: run `syt init --harness copilot --scope user`' }
      : found.length > 1
        ? { name: 'copilot-hooks', status: 'warn', detail: `installed twice (${found.join(', ')}): run \`syt init --harness copilot --uninstall\` in one scope` }
        : { name: 'copilot-hooks', status: 'ok', detail: `postToolUse registered in ${found[0]}; bash results of at least 1 KiB are replaced by views, commands are never rewritten` },
  );
  return Promise.resolve([...checks, testedVersionCheck(CLIENT, probes, env), probes.dataDir()]);
}
