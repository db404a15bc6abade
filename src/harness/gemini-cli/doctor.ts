/**
 * `syt doctor --harness gemini-cli`: are our hooks registered, does each hook command still reach its program, and is
 * the Gemini CLI the one our hooks were measured with?
 */
import { existsSync, readFileSync } from 'node:fs';
import { missingPath } from '../hook-command.ts';
import { countOurs, isOurHook } from '../hook-settings.ts';
import type { DoctorCheck, DoctorProbes } from '../types.ts';
import { OUR_HOOK_COUNT, parseGeminiSettings } from './install.ts';
import { geminiSettingsPath } from './settings.ts';

/** Gemini CLI 0.61.0 is the version whose hooks were measured (FINDINGS.md); BeforeTool rewrites need hooks at all. */
export const TESTED_GEMINI_CLI = '0.61.0';

type Env = Readonly<Record<string, string | undefined>>;

export function geminiDoctor(projectDir: string, env: Env, probes: DoctorProbes): Promise<DoctorCheck[]> {
  return Promise.resolve([...settingsChecks(projectDir, env), versionCheck(probes, env), probes.dataDir()]);
}

/** Hooks need Gemini CLI with BeforeTool argument rewriting; 0.61.0 is the version measured with the real client. */
function versionCheck(probes: DoctorProbes, env: Env): DoctorCheck {
  const bin = env['TOKENLESS_GEMINI_BIN'] ?? 'gemini';
  const version = /\d+\.\d+\.\d+/.exec(probes.version(bin) ?? '')?.[0];
  if (version === undefined) return { name: 'gemini-cli', status: 'warn', detail: `\`${bin} --version\` did not run; install Gemini CLI ${TESTED_GEMINI_CLI}` };
  return version === TESTED_GEMINI_CLI
    ? { name: 'gemini-cli', status: 'ok', detail: `${version} (the version tested with our hooks)` }
    : { name: 'gemini-cli', status: 'warn', detail: `${version}: our hooks were tested with ${TESTED_GEMINI_CLI}` };
}

function settingsChecks(projectDir: string, env: Env): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  const commands: { file: string; command: string }[] = [];
  for (const file of [geminiSettingsPath('user', projectDir, env), geminiSettingsPath('project', projectDir, env)]) {
    if (!existsSync(file)) continue;
    const parsed = parseGeminiSettings(readFileSync(file, 'utf8'));
    if (!parsed.ok) {
      checks.push({ name: 'gemini-settings', status: 'fail', detail: `${file}: ${parsed.error}` });
      continue;
    }
    if (countOurs(parsed.raw) === 0) continue;
    for (const groups of Object.values(parsed.raw['hooks'] as Record<string, unknown>)) {
      if (!Array.isArray(groups)) continue;
      for (const group of groups as { hooks?: unknown }[]) {
        for (const entry of Array.isArray(group.hooks) ? (group.hooks as { command?: unknown }[]) : []) {
          if (isOurHook(entry) && typeof entry.command === 'string') commands.push({ file, command: entry.command });
        }
      }
    }
  }
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
