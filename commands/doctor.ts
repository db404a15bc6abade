/**
 * `syt doctor [--harness NAME]`: is the integration working? The harness (src/harness/) says what to check and in
 * which order; this file does the process and network I/O its probes ask for. Each check says what is wrong and what
 * to run. Exit 1 when a check fails (warnings alone exit 0).
 */
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { loadConfig } from '../src/config/config.ts';
import { filterFilesCheck } from '../src/harness/filter-files-check.ts';
import { loadFilterSet } from '../src/filters/file/load.ts';
import { filterDirs } from '../src/filters/file/locate.ts';
import { ensurePrivateDir } from '../src/store/data-dir.ts';
import { loadHarness } from '../src/harness/load.ts';
import { DEFAULT_HARNESS, HARNESS_NAMES, agentOrder, harnessByName } from '../src/harness/registry.ts';
import type { DoctorCheck, DoctorProbes, Harness } from '../src/harness/types.ts';
import { HEALTH_PATH } from '../src/server/hook-server.ts';
import { CliError } from './shared/errors.ts';
import { findProgram } from './shared/find-program.ts';
import { parseOptions } from './shared/options.ts';
import { asInvoked, terminalWidth } from './shared/terminal.ts';
import { wrapText } from './ui/wrap.ts';
import { projectOf } from '../src/store/project.ts';
import { describeSwitches, losslessSwitches } from '../src/store/retrievals.ts';
import { withStatsReader } from '../src/store/stats-client.ts';
import { lastExport } from '../src/store/stats-export.ts';
import { telemetryCheck } from '../src/telemetry/status.ts';

/** `--harness all`: every agent found on this machine or set up here. */
const ALL = 'all';

const Options = z.object({ harness: z.optional(z.enum([...HARNESS_NAMES, ALL])), json: z.optional(z.boolean()) });

const PROBES: DoctorProbes = { version, dataDir: dataDirCheck, serverCheck };

export async function doctorCommand(raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, 'doctor');
  const filterFiles = filterFilesCheck(loadFilterSet(filterDirs(process.env, process.cwd()), loadConfig().dataDir));
  const shared = [...losslessCheck(process.cwd(), process.env), filterFiles, telemetryCheck(process.env, lastExportAt(process.env))];
  if (options.harness === ALL) {
    finish([...(await everyAgent()), ...shared], options.json === true);
    return;
  }
  const name = options.harness ?? DEFAULT_HARNESS;
  const harness = await loadHarness(harnessByName(name));
  const checks = await harness.doctor(process.cwd(), process.env, PROBES);
  // Without --harness: the other agents this machine has are named, so a person who set up Pi sees it here too.
  const others = options.harness === undefined ? await otherAgents(name) : [];
  finish([...checks, ...shared, ...others], options.json === true);
}

interface AgentState {
  readonly harness: Harness;
  readonly program: string | null;
  readonly files: readonly string[];
}

async function agentStates(): Promise<AgentState[]> {
  const states: AgentState[] = [];
  for (const entry of agentOrder()) {
    const harness = await loadHarness(entry);
    states.push({ harness, program: findProgram(harness.client, process.env), files: await harness.ourFiles(process.cwd(), process.env) });
  }
  return states;
}

/**
 * `--harness all`: each agent set up here gets its own checks (a broken install fails the run); an agent found on
 * PATH but not set up is a warning that says how; one neither found nor set up is one line at the end.
 */
async function everyAgent(): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const absent: string[] = [];
  for (const { harness, program, files } of await agentStates()) {
    if (files.length > 0) {
      checks.push({ name: 'agent', status: 'ok', detail: `${harness.title}: set up in ${files.join(', ')}${program === null ? ` (its program \`${harness.client.bin}\` is not on PATH)` : ''}` });
      checks.push(...(await harness.doctor(process.cwd(), process.env, PROBES)).filter((check) => check.name !== 'data-dir'));
    } else if (program !== null) checks.push({ name: 'agent', status: 'warn', detail: `${harness.title} (${program}) is not set up: run \`syt init --harness ${harness.name}\`` });
    else absent.push(harness.title);
  }
  checks.push(PROBES.dataDir());
  if (absent.length > 0) checks.push({ name: 'agents', status: 'ok', detail: `not on this machine: ${absent.join(', ')}` });
  return checks;
}

/** One line naming the other agents set up here or found on PATH; none when there are none. */
async function otherAgents(shown: string): Promise<DoctorCheck[]> {
  const others = (await agentStates()).filter((state) => state.harness.name !== shown);
  const setUp = others.filter((state) => state.files.length > 0).map((state) => state.harness.title);
  const found = others.filter((state) => state.files.length === 0 && state.program !== null).map((state) => state.harness.title);
  if (setUp.length === 0 && found.length === 0) return [];
  const parts = [...(setUp.length > 0 ? [`also set up here: ${setUp.join(', ')}`] : []), ...(found.length > 0 ? [`found, not set up: ${found.join(', ')}`] : [])];
  return [{ name: 'agents', status: 'ok', detail: `${parts.join('; ')} (\`syt doctor --harness all\` checks each)` }];
}

/** When an OTLP export was last accepted; null (never) without a stats.db, a watermark or a readable file. */
function lastExportAt(env: NodeJS.ProcessEnv): number | null {
  try {
    return withStatsReader(loadConfig(env).dataDir, null, lastExport);
  } catch {
    // No settings row or table yet (an older stats.db), or a damaged file the stats-status check reports.
    return null;
  }
}

/** The per-project switch to lossless views (issue 23): said only when some view kind is switched here. */
function losslessCheck(cwd: string, env: NodeJS.ProcessEnv): DoctorCheck[] {
  try {
    const switches = withStatsReader(loadConfig(env).dataDir, [], losslessSwitches);
    const detail = describeSwitches(switches, projectOf(cwd, env));
    return detail === null ? [] : [{ name: 'views', status: 'ok', detail }];
  } catch {
    // A damaged stats.db is the stats-status check's to report.
    return [];
  }
}

function finish(found: readonly DoctorCheck[], json: boolean): void {
  const checks = found.map((check) => ({ ...check, detail: asInvoked(check.detail) }));
  if (json) process.stdout.write(`${JSON.stringify({ ok: checks.every((c) => c.status !== 'fail'), checks })}\n`);
  else {
    const width = terminalWidth();
    for (const check of checks) process.stdout.write(`${wrapText(`${check.status.padEnd(4)}  ${check.name}: ${check.detail}`, width, 6)}\n`);
  }
  if (checks.some((check) => check.status === 'fail')) throw new CliError('syt doctor: some checks failed (see above)', 1);
}

function version(bin: string): string | null {
  const result = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 15_000 });
  if (result.error !== undefined) return null;
  // Pi 0.73.1 prints its version on stderr, stdout empty.
  const stdout = result.stdout ?? '';
  return stdout.trim() === '' ? (result.stderr ?? '') : stdout;
}

function dataDirCheck(): DoctorCheck {
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

async function serverCheck(url: string): Promise<DoctorCheck> {
  const health = `${new URL(url).origin}${HEALTH_PATH}`;
  try {
    const response = await fetch(health, { signal: AbortSignal.timeout(2000) });
    if (response.ok) return { name: 'http-server', status: 'ok', detail: `${health} answers` };
  } catch {
    // Reported below.
  }
  return { name: 'http-server', status: 'warn', detail: `${health} does not answer: start \`tokenless serve\` (until then Claude Code runs tools unchanged)` };
}
