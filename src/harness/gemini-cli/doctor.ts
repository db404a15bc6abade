/** `syt doctor --harness gemini-cli`: are our hooks registered, and does each hook command still reach its program? */
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { countOurs, isOurHook } from '../../adapters/claude-code/install.ts';
import type { DoctorCheck } from '../types.ts';
import { OUR_HOOK_COUNT, parseGeminiSettings } from './install.ts';
import { geminiSettingsPath } from './settings.ts';

/** Gemini CLI 0.61.0 is the version whose hooks were measured (FINDINGS.md); BeforeTool rewrites need hooks at all. */
export const TESTED_GEMINI_CLI = '0.61.0';

export function geminiDoctor(projectDir: string, env: Readonly<Record<string, string | undefined>>): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  const commands = ourHookCommands([geminiSettingsPath('user', projectDir, env), geminiSettingsPath('project', projectDir, env)], 'gemini-settings', checks);
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

/** Our hook commands in JSON settings files with Claude-Code-shaped `hooks` (a file that does not parse: a failed check). */
export function ourHookCommands(paths: readonly string[], checkName: string, checks: DoctorCheck[]): { file: string; command: string }[] {
  const commands: { file: string; command: string }[] = [];
  for (const file of paths) {
    if (!existsSync(file)) continue;
    const parsed = parseGeminiSettings(readFileSync(file, 'utf8'));
    if (!parsed.ok) {
      checks.push({ name: checkName, status: 'fail', detail: `${file}: ${parsed.error}` });
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
  return commands;
}

/** The first absolute path in a hook command that cannot be read (our binary moved or was removed). */
export function missingPath(command: string): string | undefined {
  const paths = [...command.matchAll(/'([^']+)'|(\/\S+)/g)].map((m) => m[1] ?? m[2] ?? '').filter((p) => p.startsWith('/'));
  return paths.find((path) => !readable(path));
}

function readable(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}
