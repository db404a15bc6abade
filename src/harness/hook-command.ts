/**
 * What every harness's doctor asks of its registered hooks and its client: which hook commands of ours a settings
 * file holds, do the programs they name still exist, and is the client the version our hooks were measured with?
 */
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { countOurs, isOurHook, type ParsedSettings } from './hook-settings.ts';
import type { AgentClient, DoctorCheck, DoctorProbes } from './types.ts';

/** The first absolute path in a hook command (shell-quoted or bare) that cannot be read (a moved checkout). */
export function missingPath(command: string): string | undefined {
  const paths = [...command.matchAll(/'([^']+)'|(\/\S+)/g)].map((match) => match[1] ?? match[2] ?? '').filter((path) => path.startsWith('/'));
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

/**
 * The settings files among paths that hold a hook of ours, or that do not parse (the agent cannot read them either,
 * so an install of ours may be broken there): what `--harness all` counts as set up.
 */
export function settingsFilesOfOurs(paths: readonly string[], parse: (text: string) => ParsedSettings): string[] {
  return paths.filter((file) => {
    if (!existsSync(file)) return false;
    const parsed = parse(readFileSync(file, 'utf8'));
    return !parsed.ok || countOurs(parsed.raw) > 0;
  });
}

/**
 * Our hook commands in settings files with Claude-Code-shaped `hooks` (event → groups → hooks), in file order. A file
 * that does not parse is a failed check named checkName, pushed onto checks.
 */
export function ourHookCommands(paths: readonly string[], parse: (text: string) => ParsedSettings, checkName: string, checks: DoctorCheck[]): { file: string; command: string }[] {
  const commands: { file: string; command: string }[] = [];
  for (const file of paths) {
    if (!existsSync(file)) continue;
    const parsed = parse(readFileSync(file, 'utf8'));
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

export interface TestedClient extends AgentClient {
  /** The check's name: the harness's. */
  readonly name: string;
  readonly title: string;
  /** The version whose hooks were measured with the real client (its findings). */
  readonly tested: string;
}

/** Hooks need a client that lets them rewrite a command; another version than the tested one is a warning. */
export function testedVersionCheck(client: TestedClient, probes: DoctorProbes, env: Readonly<Record<string, string | undefined>>): DoctorCheck {
  const { name, title, tested } = client;
  const bin = env[client.variable] ?? client.bin;
  const version = /\d+\.\d+\.\d+/.exec(probes.version(bin) ?? '')?.[0];
  if (version === undefined) return { name, status: 'warn', detail: `\`${bin} --version\` did not run; install ${title} ${tested}` };
  return version === tested ? { name, status: 'ok', detail: `${version} (the version tested with our hooks)` } : { name, status: 'warn', detail: `${version}: our hooks were tested with ${tested}` };
}
