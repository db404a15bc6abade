/** `syt doctor --harness opencode`: is our plugin installed in either scope, and is OpenCode the version we measured? */
import { testedVersionCheck } from '../hook-command.ts';
import { installedOwnFiles } from '../own-file.ts';
import type { DoctorCheck, DoctorProbes } from '../types.ts';
import { OPENCODE_PLUGIN, opencodePluginPath } from './install.ts';

/** The version whose plugin hooks and permission rules docs/agents/opencode.md records. */
export const TESTED_OPENCODE = '1.18.33';

type Env = Readonly<Record<string, string | undefined>>;

export const CLIENT = { name: 'opencode', title: 'OpenCode', variable: 'TOKENLESS_OPENCODE_BIN', bin: 'opencode', tested: TESTED_OPENCODE };

export function opencodeOurFiles(projectDir: string, env: Env): Promise<string[]> {
  return Promise.resolve(installedOwnFiles(OPENCODE_PLUGIN, opencodePluginPath, projectDir, env));
}

export function opencodeDoctor(projectDir: string, env: Env, probes: DoctorProbes): Promise<DoctorCheck[]> {
  const found = installedOwnFiles(OPENCODE_PLUGIN, opencodePluginPath, projectDir, env);
  const plugin: DoctorCheck =
    found.length === 0
      ? { name: 'opencode-plugin', status: 'fail', detail: 'no save-your-tokens plugin in .opencode/plugins/: run `syt init --harness opencode`' }
      : found.length > 1
        ? { name: 'opencode-plugin', status: 'warn', detail: `installed twice (${found.join(', ')}): each bash output would pass through it twice; run \`syt init --harness opencode --uninstall\` in one scope` }
        : { name: 'opencode-plugin', status: 'ok', detail: `installed in ${found[0]}; bash outputs of the main agent are replaced by views, commands are never rewritten` };
  return Promise.resolve([plugin, testedVersionCheck(CLIENT, probes, env), probes.dataDir()]);
}
