/** `syt doctor --harness codex`: are our hooks registered, does each still reach its program, has Codex trusted them? */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseGeminiSettings } from '../gemini-cli/install.ts';
import { missingPath, ourHookCommands, settingsFilesOfOurs, testedVersionCheck } from '../hook-command.ts';
import type { DoctorCheck, DoctorProbes } from '../types.ts';
import { OUR_HOOK_COUNT } from './install.ts';
import { codexHome, codexHooksPath } from './settings.ts';

/** The version whose hooks were measured (docs/agents/codex-findings.md). */
export const TESTED_CODEX = '0.169.0';

type Env = Readonly<Record<string, string | undefined>>;

export const CLIENT = { name: 'codex', title: 'Codex CLI', variable: 'TOKENLESS_CODEX_BIN', bin: 'codex', tested: TESTED_CODEX };

export function codexDoctor(projectDir: string, env: Env, probes: DoctorProbes): Promise<DoctorCheck[]> {
  return Promise.resolve([...hooksChecks(projectDir, env), testedVersionCheck(CLIENT, probes, env), probes.dataDir()]);
}

/** The hooks files holding our hooks, in either scope. */
export function codexOurFiles(projectDir: string, env: Env): Promise<string[]> {
  const paths = [codexHooksPath('user', projectDir, env), codexHooksPath('project', projectDir, env)];
  return Promise.resolve(settingsFilesOfOurs(paths, parseGeminiSettings));
}

function hooksChecks(projectDir: string, env: Env): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  const paths = [codexHooksPath('user', projectDir, env), codexHooksPath('project', projectDir, env)];
  const commands = ourHookCommands(paths, parseGeminiSettings, 'codex-hooks-file', checks);
  const files = [...new Set(commands.map((c) => c.file))];
  checks.push(
    commands.length === 0
      ? { name: 'codex-hooks', status: 'fail', detail: 'no tokenless hooks in .codex/hooks.json: run `syt init --harness codex`' }
      : commands.length > OUR_HOOK_COUNT
        ? { name: 'codex-hooks', status: 'warn', detail: `${commands.length} tokenless hooks in ${files.join(', ')}: run \`syt init --harness codex --uninstall\` in the other scope` }
        : { name: 'codex-hooks', status: 'ok', detail: `registered in ${files.join(', ')}; commands are rewritten only where Codex never asks (approval "never", e.g. codex exec) and no exec-policy rules exist` },
  );
  for (const { command } of commands) {
    const missing = missingPath(command);
    if (missing !== undefined) checks.push({ name: 'codex-binary', status: 'fail', detail: `${missing} (from the hook command) is missing: run \`syt init --harness codex\` again` });
  }
  for (const file of files) checks.push(trustCheck(file, env));
  return checks;
}

/**
 * Codex runs a new or changed hook only once the user has trusted it (`/hooks` in the terminal UI, then `t`;
 * `codex exec` skips an untrusted hook silently). It keeps the trust in config.toml as
 * `[hooks.state."<file>:pre_tool_use:0:0"] trusted_hash = "sha256:…"` (both measured with 0.169.0); we only see
 * whether an entry exists, not whether its hash still matches the hook.
 */
export function trustCheck(hooksFile: string, env: Env): DoctorCheck {
  const how = 'start `codex`, type /hooks and press t to trust the tokenless PreToolUse hook';
  let config = '';
  try {
    config = readFileSync(join(codexHome(env), 'config.toml'), 'utf8');
  } catch {
    // No config.toml: no trust entry.
  }
  return config.includes(`${hooksFile}:pre_tool_use`)
    ? { name: 'codex-trust', status: 'ok', detail: `${hooksFile}: Codex has a trust entry for our hook (a changed hook needs it again: ${how})` }
    : { name: 'codex-trust', status: 'warn', detail: `${hooksFile}: no trust entry yet, so Codex skips our hook: ${how}` };
}
