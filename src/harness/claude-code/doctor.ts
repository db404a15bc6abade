/**
 * `syt doctor` for Claude Code: our hooks registered once per event, each hook command still reaching its program,
 * a Claude Code that honours `updatedToolOutput`, the HTTP server when the hooks are HTTP ones, and how many of the
 * project's frequent commands the permission rules let the hook rewrite. Each check says what to run to fix it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { OUR_HOOK_COUNT } from './install.ts';
import { countOurs, isOurHook } from '../hook-settings.ts';
import { CLAUDE_CODE_CLIENT, claudeConfigDir, legacySettingsPaths, permissionSources, settingsPath } from './paths.ts';
import { loadPermissionRules, parseSettingsText } from './settings.ts';
import { rewriteCoverage } from '../../analyze/rewrite-coverage.ts';
import { findFilter } from '../../filters/registry.ts';
import { readBoundedText } from '../../io/bounded-read.ts';
import { readClaudeCodeTranscript } from '../../transcript/claude-code-turns.ts';
import { missingPath, settingsFilesOfOurs } from '../hook-command.ts';
import type { DoctorCheck, DoctorProbes } from '../types.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** Claude Code ignores `updatedToolOutput` for built-in tools before this version (CHANGELOG 2.1.121). */
export const MIN_CLAUDE_CODE = [2, 1, 121] as const;

export async function claudeCodeDoctor(projectDir: string, env: Env, probes: DoctorProbes): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const hooks = registeredHooks(projectDir, env, checks);
  checks.push(binaryCheck(hooks));
  checks.push(versionCheck(probes, env));
  checks.push(probes.dataDir());
  const url = hooks.map((hook) => hook.entry.url).find((value): value is string => typeof value === 'string');
  checks.push(url === undefined ? { name: 'http-server', status: 'ok', detail: 'not used (command hooks)' } : await probes.serverCheck(url));
  checks.push(permissionsCheck(projectDir, env));
  return checks;
}

/** The settings files holding our hooks (or unreadable): user, project (local) and where 0.1 put them. */
export function claudeCodeOurFiles(projectDir: string, env: Env): string[] {
  return settingsFilesOfOurs([settingsPath('user', projectDir, env), settingsPath('project', projectDir, env), ...legacySettingsPaths('project', projectDir)], parseSettingsText);
}

interface FoundHook {
  readonly file: string;
  readonly entry: { type?: unknown; command?: unknown; url?: unknown };
}

/**
 * Our hooks in the user and project (local) settings and where 0.1 put them (the committed settings.json); more than
 * one per event would race (last one wins).
 */
function registeredHooks(dir: string, env: Env, checks: DoctorCheck[]): FoundHook[] {
  const legacy = legacySettingsPaths('project', dir);
  const files = [settingsPath('user', dir, env), settingsPath('project', dir, env), ...legacy];
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
      ? { name: 'hooks', status: 'warn', detail: `registered in ${committed.join(', ')}, which is committed, with this machine's paths: run \`syt init\` to move them to ${settingsPath('project', dir, env)} (not committed)` }
      : events === 0
      ? { name: 'hooks', status: 'fail', detail: 'no tokenless hooks registered: run `syt init` (or `syt init --scope user`)' }
      : events > OUR_HOOK_COUNT
        ? { name: 'hooks', status: 'warn', detail: `${events} tokenless hooks in ${[...new Set(found.map((f) => f.file))].join(', ')}: parallel hooks race, run \`syt init --uninstall\` in the other scope` }
        : { name: 'hooks', status: 'ok', detail: `registered in ${[...new Set(found.map((f) => f.file))].join(', ')}` },
  );
  return found;
}

/** The absolute paths at the start of each hook command must still exist (a moved checkout breaks them). */
function binaryCheck(hooks: readonly FoundHook[]): DoctorCheck {
  const commands = hooks.map((hook) => hook.entry.command).filter((command): command is string => typeof command === 'string');
  if (commands.length === 0) return { name: 'binary', status: 'ok', detail: `this binary: ${process.argv[1] ?? process.execPath}` };
  for (const command of commands) {
    const missing = missingPath(command);
    if (missing !== undefined) return { name: 'binary', status: 'fail', detail: `${missing} (from the hook command) is missing: run \`syt init\` again from the installed binary` };
  }
  return { name: 'binary', status: 'ok', detail: `hook command reaches ${commands[0] ?? ''}` };
}

function versionCheck(probes: DoctorProbes, env: Env): DoctorCheck {
  const bin = env[CLAUDE_CODE_CLIENT.variable] ?? CLAUDE_CODE_CLIENT.bin;
  const version = /(\d+)\.(\d+)\.(\d+)/.exec(probes.version(bin) ?? '');
  if (version === null) return { name: 'claude-code', status: 'warn', detail: `\`${bin} --version\` did not run; install Claude Code ${MIN_CLAUDE_CODE.join('.')} or newer` };
  const parts = version.slice(1, 4).map(Number);
  const supported = compare(parts, MIN_CLAUDE_CODE) >= 0;
  return supported
    ? { name: 'claude-code', status: 'ok', detail: `${version[0]} supports updatedToolOutput` }
    : { name: 'claude-code', status: 'fail', detail: `${version[0]} ignores updatedToolOutput (needs ${MIN_CLAUDE_CODE.join('.')}+): update Claude Code` };
}

/** Transcripts read for the permissions check: the most recent sessions say what the project runs now. */
const RECENT_TRANSCRIPTS = 20;

/**
 * How many of the project's frequent commands the hook would rewrite under the current permission rules, from the
 * project's recent Claude Code transcripts (~/.claude/projects/<cwd with every non-alphanumeric as ->/).
 */
function permissionsCheck(projectDir: string, env: Env): DoctorCheck {
  const dir = join(claudeConfigDir(env), 'projects', projectDir.replace(/[^A-Za-z0-9]/g, '-'));
  const files = recentTranscripts(dir);
  if (files.length === 0) return { name: 'permissions', status: 'ok', detail: `no Claude Code transcripts found for this project (${dir}): run \`syt doctor\` again after a session to see which of your commands get filtered` };
  const commands = files.flatMap((file) => {
    // Through the bounded reader: a FIFO or a device named like a transcript is passed over, not waited on.
    const read = readBoundedText(file);
    if (!read.ok) return [];
    try {
      return readClaudeCodeTranscript(read.text, file).tools.flatMap((tool) => (tool.kind === 'shell' && tool.command !== null ? [tool.command] : []));
    } catch {
      return [];
    }
  });
  const loaded = loadPermissionRules(permissionSources(projectDir, env));
  const rows = rewriteCoverage(commands, { rules: loaded.rules, projectDir, unknownRules: loaded.unknown }, (argv) => findFilter(argv) !== null);
  if (rows.length === 0) return { name: 'permissions', status: 'ok', detail: `no shell commands in the ${files.length} most recent transcript(s) of ${dir}` };
  const count = (coverage: string): number => rows.filter((row) => row.coverage === coverage).length;
  const advice = rows.flatMap((row) => (row.allowAdvice === undefined ? [] : [row.allowAdvice]));
  const rules = [...new Set(advice.flatMap((item) => (item.suggest ? [item.rule] : [])))];
  const withheld = [...new Map(advice.flatMap((item) => (item.suggest ? [] : [[item.rule, item.why] as const]))).entries()];
  const summary = `of the ${rows.length} most frequent commands in ${files.length} recent transcript(s), ${count('silent')} are rewritten silently (read-only or allowed), ${count('dialog')} show the rewritten line in Claude Code's permission dialog (terminal UI only; left alone in \`claude -p\`), ${count('asked') + count('unfiltered')} are left alone (${count('unfiltered')} cannot be wrapped)`;
  const suggested = rules.length === 0 ? '' : `; to filter them without a dialog, add ${rules.map((rule) => `"${rule}"`).join(', ')} to permissions.allow in .claude/settings.json`;
  // A standing rule for a command that pushes, installs or deletes would trade the person's safety for tokens.
  const notSuggested = withheld.length === 0 ? '' : `; no rule suggested for ${withheld.map(([rule, why]) => `"${rule}" (${why})`).join(', ')}: keep being asked`;
  return { name: 'permissions', status: rules.length > 0 ? 'warn' : 'ok', detail: summary + suggested + notSuggested };
}

function recentTranscripts(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.jsonl'))
      // A dangling link has no mtime: it is left out, not allowed to hide every other transcript.
      .flatMap((name) => {
        const mtime = statSync(join(dir, name), { throwIfNoEntry: false })?.mtimeMs;
        return mtime === undefined ? [] : [{ path: join(dir, name), mtime }];
      })
      .sort((a, b) => b.mtime - a.mtime)
      .slice(0, RECENT_TRANSCRIPTS)
      .map((entry) => entry.path);
  } catch {
    return [];
  }
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}
