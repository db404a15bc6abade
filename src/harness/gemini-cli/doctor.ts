/**
 * `syt doctor --harness gemini-cli`: are our hooks registered, does each hook command still reach its program, and is
 * the Gemini CLI the one our hooks were measured with?
 */
import { missingPath, ourHookCommands, settingsFilesOfOurs, testedVersionCheck } from '../hook-command.ts';
import type { DoctorCheck, DoctorProbes } from '../types.ts';
import { OUR_HOOK_COUNT, parseGeminiSettings } from './install.ts';
import { geminiSettingsPath } from './settings.ts';

/** Gemini CLI 0.61.0 is the version whose hooks were measured (FINDINGS.md); BeforeTool rewrites need hooks at all. */
export const TESTED_GEMINI_CLI = '0.61.0';

type Env = Readonly<Record<string, string | undefined>>;

export const CLIENT = { name: 'gemini-cli', title: 'Gemini CLI', variable: 'TOKENLESS_GEMINI_BIN', bin: 'gemini', tested: TESTED_GEMINI_CLI };

export function geminiDoctor(projectDir: string, env: Env, probes: DoctorProbes): Promise<DoctorCheck[]> {
  return Promise.resolve([...settingsChecks(projectDir, env), testedVersionCheck(CLIENT, probes, env), probes.dataDir()]);
}

/** The settings files holding our hooks, in either scope. */
export function geminiOurFiles(projectDir: string, env: Env): Promise<string[]> {
  const paths = [geminiSettingsPath('user', projectDir, env), geminiSettingsPath('project', projectDir, env)];
  return Promise.resolve(settingsFilesOfOurs(paths, parseGeminiSettings));
}

function settingsChecks(projectDir: string, env: Env): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  const paths = [geminiSettingsPath('user', projectDir, env), geminiSettingsPath('project', projectDir, env)];
  const commands = ourHookCommands(paths, parseGeminiSettings, 'gemini-settings', checks);
  const files = [...new Set(commands.map((c) => c.file))];
  checks.push(
    commands.length === 0
      ? { name: 'gemini-hooks', status: 'fail', detail: 'no tokenless hooks in .gemini/settings.json: run `syt init --harness gemini-cli`' }
      : commands.length > OUR_HOOK_COUNT
        ? { name: 'gemini-hooks', status: 'warn', detail: `${commands.length} tokenless hooks in ${files.join(', ')}: run \`syt init --harness gemini-cli --uninstall\` in the other scope` }
        : { name: 'gemini-hooks', status: 'ok', detail: `registered in ${files.join(', ')}; commands are rewritten only in headless YOLO sessions without custom rules` },
  );
  for (const { command } of commands) {
    const missing = missingPath(command);
    if (missing !== undefined) checks.push({ name: 'gemini-binary', status: 'fail', detail: `${missing} (from the hook command) is missing: run \`syt init --harness gemini-cli\` again` });
  }
  return checks;
}
