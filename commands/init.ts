/**
 * `syt init [--harness NAME] [--scope project|user] [--http] [--uninstall] [--dry-run]`: the file I/O around each
 * harness's pure plans (src/harness/). A settings file that is not valid JSON is refused with nothing changed (a
 * legacy one, only looked at for hooks an earlier version wrote, is left alone with a note).
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import * as z from 'zod/mini';
import { loadHarness } from '../src/harness/load.ts';
import { DEFAULT_HARNESS, HARNESSES, HARNESS_NAMES, agentOrder, harnessByName } from '../src/harness/registry.ts';
import { type Harness, type Installer, type InstallPlan, type InstallTarget, type UninstallPlan } from '../src/harness/types.ts';
import { resolveDataDir } from '../src/config/data-dir.ts';
import { unifiedDiff } from '../src/store/stats-diff.ts';
import { DEFAULT_SERVE_PORT, readOrCreateToken, readToken } from '../src/server/token.ts';
import { wrapperCommand } from '../src/shell/wrapper-command.ts';
import { CliError } from './shared/errors.ts';
import { findProgram } from './shared/find-program.ts';
import { parseOptions, portOption } from './shared/options.ts';
import { ensureGitIgnored } from './shared/git-ignore.ts';
import { programName, terminalWidth } from './shared/terminal.ts';
import { wrapText } from './ui/wrap.ts';

/** `--harness all`: every agent found on this machine. */
const ALL = 'all';

const Options = z.object({
  harness: z.optional(z.enum([...HARNESS_NAMES, ALL])),
  scope: z.optional(z.enum(['project', 'user'])),
  http: z.optional(z.boolean()),
  port: z.optional(portOption),
  uninstall: z.optional(z.boolean()),
  dryRun: z.optional(z.boolean()),
  json: z.optional(z.boolean()),
});

type InitOptions = z.infer<typeof Options>;

export const BACKUP_SUFFIX = '.syt-backup';

interface FileChange {
  readonly path: string;
  readonly action: 'created' | 'updated' | 'unchanged' | 'restored' | 'removed';
  readonly backup: string | null;
  readonly note: string;
  readonly diff: string;
}

export async function initCommand(raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, 'init');
  if (options.harness === ALL) {
    await initAll(options);
    return;
  }
  const harness = await loadHarness(harnessByName(options.harness ?? DEFAULT_HARNESS));
  const http = options.http === true;
  if (http && !harness.httpHooks) throw new CliError(`syt init: --http serves ${(await httpHarnesses()).join(', ')} only; ${harness.name} uses command hooks`, 2);
  const done = initOne(harness, await harness.installer(), options);
  report(done.changes, done.notes, options.json === true, options.dryRun === true);
  if (options.json !== true && options.uninstall !== true && options.dryRun !== true) process.stdout.write(nextSteps(harness, done.into, http, options.scope ?? 'project'));
}

/**
 * `--harness all`: every agent whose program is on this machine (or that has our hooks already, so an uninstall
 * finds them), each as `--harness NAME` would do it. One agent's failure does not stop the others; it makes the exit 1.
 */
async function initAll(options: InitOptions): Promise<void> {
  if (options.http === true) throw new CliError(`syt init: --http is per agent (${(await httpHarnesses()).join(', ')}); with --harness all, hooks are command hooks`, 2);
  const json = options.json === true;
  const results: { harness: string; program: string | null; files: FileChange[]; notes: string[]; error: string | null }[] = [];
  const missing: string[] = [];
  for (const entry of agentOrder()) {
    const harness = await loadHarness(entry);
    const program = findProgram(harness.client, process.env);
    if (program === null && (await harness.ourFiles(process.cwd(), process.env)).length === 0) {
      missing.push(`${harness.title} (${harness.client.bin})`);
      continue;
    }
    try {
      const done = initOne(harness, await harness.installer(), options);
      results.push({ harness: harness.name, program, files: done.changes, notes: done.notes, error: null });
      if (json) continue;
      process.stdout.write(`${harness.title}${program === null ? '' : ` (${program})`}\n`);
      report(done.changes, done.notes, false, options.dryRun === true);
      if (options.uninstall !== true && options.dryRun !== true) process.stdout.write(nextSteps(harness, done.into, false, options.scope ?? 'project'));
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      results.push({ harness: harness.name, program, files: [], notes: [], error: error.message });
      if (!json) process.stdout.write(`${harness.title}: ${error.message}\n`);
    }
  }
  if (json) process.stdout.write(`${JSON.stringify({ dry_run: options.dryRun === true, agents: results, not_found: missing })}\n`);
  else if (missing.length > 0) process.stdout.write(`${wrapText(`Not found on PATH, left alone: ${missing.join(', ')}`, terminalWidth(), 2)}\n`);
  if (results.length === 0) throw new CliError(`syt init --harness all: no agent found on PATH (looked for ${HARNESSES.length}: ${missing.join(', ')})`, 1);
  const failed = results.filter((result) => result.error !== null);
  if (failed.length > 0) throw new CliError(`syt init --harness all: ${failed.map((result) => result.harness).join(', ')} failed (see above); the others are done`, 1);
}

interface InitDone {
  readonly into: string;
  readonly changes: FileChange[];
  readonly notes: string[];
}

/** One agent's install or uninstall (what `--harness NAME` does), reported by the caller. */
function initOne(harness: Harness, installer: Installer, options: InitOptions): InitDone {
  const scope = options.scope ?? 'project';
  const http = options.http === true;
  const projectDir = process.cwd();
  // Claude Code's project file is .claude/settings.local.json, not committed (the hooks name this machine's paths;
  // --http's also a token).
  const into = harness.settingsPath(scope, projectDir, process.env);
  const legacy = harness.legacySettingsPaths(scope, projectDir);
  const dryRun = options.dryRun === true;
  const planned = (path: string): UninstallStep => planUninstallFile(path, (current, backup) => installer.planUninstall(current, backup));
  const changes: FileChange[] = [];
  const notes: string[] = [];
  // A committed file we cannot parse holds no hooks of ours we could remove: it is only looked at, so it is left alone
  // with a note instead of failing the whole command.
  const fromLegacy = (path: string): FileChange | null => {
    const step = planned(path);
    if (step.plan.ok) return uninstallFile(step, dryRun);
    notes.push(`${path}: not checked for hooks of an earlier syt init (${step.plan.error})`);
    return null;
  };
  if (options.uninstall === true) {
    changes.push(uninstallFile(planned(into), dryRun));
    for (const path of legacy) changes.push(...nonNull(fromLegacy(path)));
  } else {
    // A dry run creates no token: it shows the existing one (masked) or a stand-in.
    const token = (): string => (dryRun ? (readToken(resolveDataDir()) ?? '0'.repeat(64)) : readOrCreateToken(resolveDataDir()));
    const target: InstallTarget = http
      ? { kind: 'http', baseUrl: `http://127.0.0.1:${options.port ?? DEFAULT_SERVE_PORT}`, token: token() }
      : { kind: 'command', wrapperCommand: wrapperCommand() };
    // Before the file is written: git must never pick up this machine's paths, nor the token.
    const ignoring = scope === 'project' && (harness.privateProjectSettings || http);
    const ignored = ignoring ? ensureGitIgnored(into, projectDir, dryRun, http ? 'the hook token' : "this machine's paths") : null;
    if (ignored !== null) notes.push(ignored.note);
    // The backup of an existing local file is as private as the file: ignored just before it is written, and only
    // then (a second init writes none, so it says nothing about one).
    const beforeBackup = (): void => {
      if (ignored?.ignored !== true) return;
      const backup = ensureGitIgnored(`${into}${BACKUP_SUFFIX}`, projectDir, dryRun, 'a copy of your local settings');
      if (!backup.already) notes.push(backup.note);
    };
    // First: a settings file that is not valid JSON stops init before anything else moves.
    changes.push(installFile(into, (original) => installer.planInstall(original, target), dryRun, target, beforeBackup));
    // One hook per event in total: hooks an earlier version wrote into a committed file move here.
    for (const path of legacy) {
      const moved = fromLegacy(path);
      if (moved === null) continue;
      if (moved.action !== 'unchanged') notes.push(`${dryRun ? 'would move' : 'moved'} our hooks out of ${path} (committed, so it must not name this machine's paths) into ${into}`);
      changes.push(moved);
    }
  }
  // Files we did not touch and were not asked about are not worth a line.
  return { into, changes: changes.filter((change) => change.action !== 'unchanged' || change.path === into), notes };
}


/** The harnesses whose hooks can be HTTP ones. */
async function httpHarnesses(): Promise<string[]> {
  const loaded = await Promise.all(HARNESSES.map(loadHarness));
  return loaded.filter((harness) => harness.httpHooks).map((harness) => harness.title);
}

/** What init installed and what to run next, from the harness (nothing when it has nothing to add). */
export function nextSteps(harness: Harness, path: string, http: boolean, scope: 'project' | 'user'): string {
  const steps = harness.nextSteps(path, http ? 'http' : 'command', scope, programName());
  if (steps.length === 0) return '';
  return ['', 'Next steps', ...steps.map((step) => `- ${step}`), '']
    .map((line) => wrapText(line, terminalWidth(), 2))
    .join('\n');
}

/** target: what the hooks point at; an HTTP target holds a secret, kept out of the printed diff and the file's mode. */
function installFile(path: string, planFor: (original: string | null) => InstallPlan, dryRun: boolean, target: InstallTarget, beforeBackup: () => void = () => {}): FileChange {
  const secret = target.kind === 'http';
  const original = readOrNull(path);
  const plan = planFor(original);
  if (!plan.ok) throw new CliError(`syt init: ${path}: ${plan.error}`);
  if (!plan.changed) return { path, action: 'unchanged', backup: null, note: plan.reason, diff: '' };
  const backup = `${path}${BACKUP_SUFFIX}`;
  const text = unifiedDiff(original ?? '', plan.text, { before: original === null ? '/dev/null' : path, after: path }).text;
  const diff = masked(text, target);
  if (plan.backup === 'write' && original !== null) beforeBackup();
  if (!dryRun) {
    mkdirSync(dirname(linkTarget(path)), { recursive: true });
    if (plan.backup === 'write' && original !== null) writeFileSync(backup, original, { mode: modeOf(path) ?? 0o644 });
    writeAtomic(path, plan.text, secret ? 0o600 : modeOf(path));
  }
  return {
    path,
    action: original === null ? 'created' : 'updated',
    backup: plan.backup === 'none' ? null : backup,
    note: original === null ? 'new file' : plan.backup === 'keep' ? 'replaced our earlier hooks' : 'our hooks added',
    diff,
  };
}

/** A settings file, its backup, and what uninstalling our hooks from them would do (read and planned once). */
interface UninstallStep {
  readonly path: string;
  readonly current: string | null;
  readonly backup: string | null;
  readonly plan: UninstallPlan;
}

function planUninstallFile(path: string, plan: (current: string | null, backup: string | null) => UninstallPlan): UninstallStep {
  const current = readOrNull(path);
  const backup = readOrNull(`${path}${BACKUP_SUFFIX}`);
  return { path, current, backup, plan: plan(current, backup) };
}

function uninstallFile({ path, current, backup, plan }: UninstallStep, dryRun: boolean): FileChange {
  const backupPath = `${path}${BACKUP_SUFFIX}`;
  if (!plan.ok) throw new CliError(`syt init --uninstall: ${path}: ${plan.error}`);
  if (plan.action === 'unchanged') return { path, action: 'unchanged', backup: null, note: plan.reason, diff: '' };
  const after = plan.action === 'delete' ? '' : plan.text;
  const diff = unifiedDiff(current ?? '', after, { before: path, after: plan.action === 'delete' ? '/dev/null' : path }).text;
  if (!dryRun) {
    // A symlinked file is emptied through the link, never unlinked: the link is the user's.
    if (plan.action === 'delete' && !isSymlink(path)) rmSync(path);
    else writeAtomic(path, plan.action === 'delete' ? '{}\n' : plan.text, modeOf(backupPath) ?? modeOf(path));
    if (backup !== null) rmSync(backupPath);
  }
  if (plan.action === 'delete') return { path, action: 'removed', backup: null, note: 'the file only held our hooks', diff };
  return {
    path,
    action: plan.restoredBackup ? 'restored' : 'updated',
    backup: null,
    note: plan.restoredBackup ? 'restored byte for byte from the backup' : 'our hooks removed; other changes since init kept',
    diff,
  };
}

function report(changes: readonly FileChange[], notes: readonly string[], json: boolean, dryRun: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify({ dry_run: dryRun, files: changes, notes })}\n`);
    return;
  }
  for (const note of notes) process.stdout.write(`${note}\n`);
  for (const change of changes) {
    const verb = dryRun && change.action !== 'unchanged' ? `would be ${change.action}` : change.action;
    process.stdout.write(`${change.path}: ${verb} (${change.note})${change.backup !== null && !dryRun ? `; backup ${change.backup}` : ''}\n`);
    if (dryRun && change.diff !== '') process.stdout.write(`${change.diff}\n`);
  }
}

function nonNull<T>(value: T | null): T[] {
  return value === null ? [] : [value];
}

function readOrNull(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

function modeOf(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return undefined;
  }
}

/**
 * Write-then-rename: Claude Code never reads a half-written settings file. A symlinked settings file (a dotfiles
 * repository) is written through: the rename replaces the link's final target, so the link stays a link.
 */
function writeAtomic(path: string, text: string, mode: number | undefined): void {
  const target = linkTarget(path);
  const temp = `${target}.syt-tmp-${process.pid}`;
  writeFileSync(temp, text, { mode: mode ?? 0o644 });
  if (mode !== undefined) chmodSync(temp, mode);
  renameSync(temp, target);
}

/** The file a chain of symbolic links ends at (which may not exist yet); the path itself when it is no link. */
function linkTarget(path: string): string {
  let current = path;
  for (let hops = 0; hops < 40; hops += 1) {
    if (!isSymlink(current)) return current;
    current = resolve(dirname(current), readlinkSync(current));
  }
  throw new CliError(`syt init: ${path}: too many levels of symbolic links`);
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The hook token never appears in what init prints (a dry run's diff, --json): it is a credential. */
function masked(text: string, target: InstallTarget): string {
  return target.kind === 'http' ? text.split(target.token).join('<token: see serve-token in the data dir>') : text;
}
