/**
 * `syt doctor`: is the Claude Code integration working? Each check says what is wrong and what to run. Exit 1 when a
 * check fails (warnings alone exit 0).
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { OUR_HOOK_COUNT, countOurs, isOurHook } from '../../src/adapters/claude-code/install.ts';
import { claudeConfigDir, legacySettingsPaths, loadPermissionRules, parseSettingsText, permissionSources, settingsPath } from '../../src/adapters/claude-code/settings.ts';
import { rewriteCoverage } from '../../src/analyze/rewrite-coverage.ts';
import { findFilter } from '../../src/filters/registry.ts';
import { readClaudeCodeTranscript } from '../../src/transcript/claude-code-turns.ts';
import { TESTED_CODEX } from '../../src/harness/codex/doctor.ts';
import { TESTED_GEMINI_CLI } from '../../src/harness/gemini-cli/doctor.ts';
import { loadConfig } from '../../src/config/config.ts';
import { ensurePrivateDir } from '../../src/store/data-dir.ts';
import { harnessByName } from '../../src/harness/registry.ts';
import { HARNESS_NAMES } from '../../src/harness/types.ts';
import { HEALTH_PATH } from '../../src/server/hook-server.ts';
import { CliError } from '../errors.ts';
import { parseOptions } from '../options.ts';
import { terminalWidth } from '../terminal.ts';
import { wrapText } from '../ui/wrap.ts';

const Options = z.object({ harness: z.optional(z.enum(HARNESS_NAMES)), json: z.optional(z.boolean()) });

/** Claude Code ignores `updatedToolOutput` for built-in tools before this version (CHANGELOG 2.1.121). */
export const MIN_CLAUDE_CODE = [2, 1, 121] as const;

interface Check {
  readonly name: string;
  readonly status: 'ok' | 'warn' | 'fail';
  readonly detail: string;
}

export async function doctorCommand(raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, 'doctor');
  const checks: Check[] = [];
  if (options.harness !== undefined && options.harness !== 'claude-code') {
    checks.push(...(await harnessByName(options.harness).load()).doctor(process.cwd(), process.env), clientVersionCheck(options.harness), dataDirCheck());
    finish(checks, options.json === true);
    return;
  }
  const hooks = registeredHooks(checks);
  checks.push(binaryCheck(hooks));
  checks.push(claudeVersionCheck());
  checks.push(dataDirCheck());
  checks.push(await serverCheck(hooks));
  checks.push(permissionsCheck(process.cwd()));
  finish(checks, options.json === true);
}

function finish(checks: readonly Check[], json: boolean): void {
  if (json) process.stdout.write(`${JSON.stringify({ ok: checks.every((c) => c.status !== 'fail'), checks })}\n`);
  else {
    const width = terminalWidth();
    for (const check of checks) process.stdout.write(`${wrapText(`${check.status.padEnd(4)}  ${check.name}: ${check.detail}`, width, 6)}\n`);
  }
  if (checks.some((check) => check.status === 'fail')) throw new CliError('syt doctor: some checks failed (see above)', 1);
}

/** The client whose hooks we register, and the version measured with them (its FINDINGS). */
const CLIENTS = {
  'gemini-cli': { label: 'Gemini CLI', variable: 'TOKENLESS_GEMINI_BIN', bin: 'gemini', tested: TESTED_GEMINI_CLI },
  codex: { label: 'Codex CLI', variable: 'TOKENLESS_CODEX_BIN', bin: 'codex', tested: TESTED_CODEX },
} as const;

/** Hooks need a client that lets them rewrite a command; the tested version is the one measured with the real client. */
function clientVersionCheck(harness: keyof typeof CLIENTS): Check {
  const { label, variable, bin: fallback, tested } = CLIENTS[harness];
  const bin = process.env[variable] ?? fallback;
  const result = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 15_000 });
  const version = /\d+\.\d+\.\d+/.exec(result.stdout ?? '')?.[0];
  if (result.error !== undefined || version === undefined) return { name: harness, status: 'warn', detail: `\`${bin} --version\` did not run; install ${label} ${tested}` };
  return version === tested
    ? { name: harness, status: 'ok', detail: `${version} (the version tested with our hooks)` }
    : { name: harness, status: 'warn', detail: `${version}: our hooks were tested with ${tested}` };
}

interface FoundHook {
  readonly file: string;
  readonly entry: { type?: unknown; command?: unknown; url?: unknown };
}

/** Our hooks in the user, project and local settings; more than one per event would race (last one wins). */
function registeredHooks(checks: Check[]): FoundHook[] {
  const dir = process.cwd();
  const legacy = legacySettingsPaths('project', dir);
  const files = [settingsPath('user', dir, process.env), settingsPath('project', dir, process.env), ...legacy];
  const found: FoundHook[] = [];
  for (const file of files) {
    if (!existsSync(file)) continue;
    const parsed = parseSettingsText(readFileSync(file, 'utf8'));
    if (!parsed.ok) {
      checks.push({ name: 'settings', status: 'fail', detail: `${file}: ${parsed.error} (Claude Code will not read it either)` });
      continue;
    }
    if (countOurs(parsed.raw) === 0) continue;
    for (const groups of Object.values(parsed.settings.hooks ?? {})) {
      for (const group of groups) for (const entry of group.hooks) if (isOurHook(entry)) found.push({ file, entry });
    }
  }
  const events = found.length;
  const committed = [...new Set(found.filter((hook) => legacy.includes(hook.file)).map((hook) => hook.file))];
  checks.push(
    committed.length > 0 && events <= OUR_HOOK_COUNT
      ? { name: 'hooks', status: 'warn', detail: `registered in ${committed.join(', ')}, which is committed, with this machine's paths: run \`syt init\` to move them to ${settingsPath('project', dir, process.env)} (not committed)` }
      : events === 0
      ? { name: 'hooks', status: 'fail', detail: 'no tokenless hooks registered: run `syt init` (or `syt init --scope user`)' }
      : events > OUR_HOOK_COUNT
        ? { name: 'hooks', status: 'warn', detail: `${events} tokenless hooks in ${[...new Set(found.map((f) => f.file))].join(', ')}: parallel hooks race, run \`syt init --uninstall\` in the other scope` }
        : { name: 'hooks', status: 'ok', detail: `registered in ${[...new Set(found.map((f) => f.file))].join(', ')}` },
  );
  return found;
}

/** The absolute paths at the start of each hook command must still exist (a moved checkout breaks them). */
function binaryCheck(hooks: readonly FoundHook[]): Check {
  const commands = hooks.map((hook) => hook.entry.command).filter((command): command is string => typeof command === 'string');
  if (commands.length === 0) return { name: 'binary', status: 'ok', detail: `this binary: ${process.argv[1] ?? process.execPath}` };
  for (const command of commands) {
    const paths = [...command.matchAll(/'([^']+)'|(\/\S+)/g)].map((match) => match[1] ?? match[2] ?? '').filter((path) => path.startsWith('/'));
    const missing = paths.find((path) => !isExecutableOrFile(path));
    if (missing !== undefined) return { name: 'binary', status: 'fail', detail: `${missing} (from the hook command) is missing: run \`syt init\` again from the installed binary` };
  }
  return { name: 'binary', status: 'ok', detail: `hook command reaches ${commands[0] ?? ''}` };
}

function claudeVersionCheck(): Check {
  const bin = process.env['TOKENLESS_CLAUDE_BIN'] ?? 'claude';
  const result = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 15_000 });
  const version = /(\d+)\.(\d+)\.(\d+)/.exec(result.stdout ?? '');
  if (result.error !== undefined || version === null) return { name: 'claude-code', status: 'warn', detail: `\`${bin} --version\` did not run; install Claude Code ${MIN_CLAUDE_CODE.join('.')} or newer` };
  const parts = version.slice(1, 4).map(Number);
  const supported = compare(parts, MIN_CLAUDE_CODE) >= 0;
  return supported
    ? { name: 'claude-code', status: 'ok', detail: `${version[0]} supports updatedToolOutput` }
    : { name: 'claude-code', status: 'fail', detail: `${version[0]} ignores updatedToolOutput (needs ${MIN_CLAUDE_CODE.join('.')}+): update Claude Code` };
}

function dataDirCheck(): Check {
  const config = loadConfig();
  try {
    ensurePrivateDir(config.dataDir);
    const probe = join(config.dataDir, `.doctor-${process.pid}`);
    writeFileSync(probe, 'ok', { mode: 0o600 });
    rmSync(probe);
  } catch (error) {
    return { name: 'data-dir', status: 'fail', detail: `${config.dataDir} is not writable (${error instanceof Error ? error.message : String(error)}): set TOKENLESS_DATA_DIR` };
  }
  if (config.configError !== null) return { name: 'data-dir', status: 'warn', detail: config.configError };
  return { name: 'data-dir', status: 'ok', detail: `${config.dataDir} is writable` };
}

async function serverCheck(hooks: readonly FoundHook[]): Promise<Check> {
  const url = hooks.map((hook) => hook.entry.url).find((value): value is string => typeof value === 'string');
  if (url === undefined) return { name: 'http-server', status: 'ok', detail: 'not used (command hooks)' };
  const health = `${new URL(url).origin}${HEALTH_PATH}`;
  try {
    const response = await fetch(health, { signal: AbortSignal.timeout(2000) });
    if (response.ok) return { name: 'http-server', status: 'ok', detail: `${health} answers` };
  } catch {
    // Reported below.
  }
  return { name: 'http-server', status: 'warn', detail: `${health} does not answer: start \`tokenless serve\` (until then Claude Code runs tools unchanged)` };
}

/** Transcripts read for the permissions check: the most recent sessions say what the project runs now. */
const RECENT_TRANSCRIPTS = 20;

/**
 * How many of the project's frequent commands the hook would rewrite under the current permission rules, from the
 * project's recent Claude Code transcripts (~/.claude/projects/<cwd with every non-alphanumeric as ->/).
 */
function permissionsCheck(projectDir: string): Check {
  const dir = join(claudeConfigDir(process.env), 'projects', projectDir.replace(/[^A-Za-z0-9]/g, '-'));
  const files = recentTranscripts(dir);
  if (files.length === 0) return { name: 'permissions', status: 'ok', detail: `no Claude Code transcripts found for this project (${dir}): run \`syt doctor\` again after a session to see which of your commands get filtered` };
  const commands = files.flatMap((file) => {
    try {
      return readClaudeCodeTranscript(readFileSync(file, 'utf8'), file).tools.flatMap((tool) => (tool.kind === 'shell' && tool.command !== null ? [tool.command] : []));
    } catch {
      return [];
    }
  });
  const loaded = loadPermissionRules(permissionSources(projectDir, process.env));
  const rows = rewriteCoverage(commands, { rules: loaded.rules, projectDir, unknownRules: loaded.unknown }, (argv) => findFilter(argv) !== null);
  if (rows.length === 0) return { name: 'permissions', status: 'ok', detail: `no shell commands in the ${files.length} most recent transcript(s) of ${dir}` };
  const count = (coverage: string): number => rows.filter((row) => row.coverage === coverage).length;
  const rules = [...new Set(rows.flatMap((row) => (row.allowRule === undefined ? [] : [row.allowRule])))];
  const summary = `of the ${rows.length} most frequent commands in ${files.length} recent transcript(s), ${count('silent')} are rewritten silently (read-only or allowed), ${count('dialog')} show the rewritten line in Claude Code's permission dialog (terminal UI only; left alone in \`claude -p\`), ${count('asked') + count('unfiltered')} are left alone (${count('unfiltered')} have no filter)`;
  const advice = rules.length === 0 ? '' : `; to filter them without a dialog, add ${rules.map((rule) => `"${rule}"`).join(', ')} to permissions.allow in .claude/settings.json`;
  return { name: 'permissions', status: rules.length > 0 ? 'warn' : 'ok', detail: summary + advice };
}

function recentTranscripts(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => ({ path: join(dir, name), mtime: statSync(join(dir, name)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime)
      .slice(0, RECENT_TRANSCRIPTS)
      .map((entry) => entry.path);
  } catch {
    return [];
  }
}

function isExecutableOrFile(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}
