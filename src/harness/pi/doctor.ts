/** `syt doctor --harness pi`: is our extension installed in either scope, and is Pi the version we measured? */
import { testedVersionCheck } from '../hook-command.ts';
import { installedOwnFiles } from '../own-file.ts';
import type { DoctorCheck, DoctorProbes } from '../types.ts';
import { PI_EXTENSION, piExtensionPath } from './install.ts';

/** The version whose extension events docs/agents/pi.md records. */
export const TESTED_PI = '0.73.1';

type Env = Readonly<Record<string, string | undefined>>;

export const CLIENT = { name: 'pi', title: 'Pi', variable: 'TOKENLESS_PI_BIN', bin: 'pi', tested: TESTED_PI };

export function piOurFiles(projectDir: string, env: Env): Promise<string[]> {
  return Promise.resolve(installedOwnFiles(PI_EXTENSION, piExtensionPath, projectDir, env));
}

export function piDoctor(projectDir: string, env: Env, probes: DoctorProbes): Promise<DoctorCheck[]> {
  const found = installedOwnFiles(PI_EXTENSION, piExtensionPath, projectDir, env);
  const extension: DoctorCheck =
    found.length === 0
      ? { name: 'pi-extension', status: 'fail', detail: 'no save-your-tokens extension in .pi/extensions/ or ~/.pi/agent/extensions/: run `syt init --harness pi`' }
      : found.length > 1
        ? { name: 'pi-extension', status: 'warn', detail: `installed twice (${found.join(', ')}): Pi loads both; run \`syt init --harness pi --uninstall\` in one scope` }
        : { name: 'pi-extension', status: 'ok', detail: `installed in ${found[0]}; bash results of at least 1 KiB are replaced by views, commands are never rewritten` };
  return Promise.resolve([extension, testedVersionCheck(CLIENT, probes, env), probes.dataDir()]);
}
