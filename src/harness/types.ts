/**
 * One coding agent ("harness") behind one interface: how to recognise its hook events, how to answer a lifecycle in
 * its dialect, where its session id comes from, how to install and uninstall its hooks, and what `doctor` checks.
 * Everything here is pure or reads files; process I/O stays in hooks/ and commands/.
 */
import type { Lifecycle } from '../protocol/schemas.ts';
import type { Runtime } from '../runtime/runtime.ts';

/** answer: the JSON document to print (null: print nothing, the tool runs unchanged). error: the event is malformed. */
/** `sessionEnded`: the event was the session's end (the hook then starts a detached telemetry export, if on). */
export type HarnessAnswer = { readonly answer: object | null; readonly note: string; readonly sessionEnded?: boolean } | { readonly error: string };

/** What `syt init` edits a settings file with: pure plans over the file's text. */
export interface Installer {
  planInstall(original: string | null, target: InstallTarget): InstallPlan;
  planUninstall(current: string | null, backup: string | null): UninstallPlan;
}

export interface AnswerContext {
  /** Our binary, absolute and shell-quoted, for rewritten commands. */
  readonly wrapperCommand: string;
  /** The hook's environment (HOME, the harness's project and session variables). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Where our hooks send their calls: our binary (absolute, shell-quoted) or the local HTTP hook server (`syt serve`). */
export type InstallTarget = { readonly kind: 'command'; readonly wrapperCommand: string } | { readonly kind: 'http'; readonly baseUrl: string; readonly token: string };

export type InstallPlan =
  | { readonly ok: true; readonly changed: false; readonly reason: string }
  | { readonly ok: true; readonly changed: true; readonly text: string; readonly backup: 'write' | 'keep' | 'none' }
  | { readonly ok: false; readonly error: string };

export type UninstallPlan =
  | { readonly ok: true; readonly action: 'unchanged'; readonly reason: string }
  | { readonly ok: true; readonly action: 'write'; readonly text: string; readonly restoredBackup: boolean }
  | { readonly ok: true; readonly action: 'delete' }
  | { readonly ok: false; readonly error: string };

export type Scope = 'project' | 'user';

export interface DoctorCheck {
  readonly name: string;
  readonly status: 'ok' | 'warn' | 'fail';
  readonly detail: string;
}

/** The heavy part of a harness, loaded only once an event is known to be its own. */
export interface Harness {
  /** Its name in the registry, in `--harness NAME` and in its hook URLs. */
  readonly name: string;
  /** The agent's own name, for messages. */
  readonly title: string;
  /** One lifecycle call; the event was recognised as this harness's by its HarnessEntry. */
  answer(lifecycle: Lifecycle, raw: Record<string, unknown>, runtime: Runtime, context: AnswerContext): Promise<HarnessAnswer>;
  /**
   * `hook session`: the context budget's session events (prompt submitted, session started, before a compaction),
   * answered in the harness's dialect. null: the harness sends none of ours.
   */
  readonly answerSession: ((raw: Record<string, unknown>, dataDir: string) => Promise<HarnessAnswer>) | null;
  /** The settings file `syt init` edits for a scope. */
  settingsPath(scope: Scope, projectDir: string, env: Readonly<Record<string, string | undefined>>): string;
  /**
   * The project's settings file is the harness's own uncommitted one (Claude Code's `.claude/settings.local.json`):
   * our hooks name this machine's paths, so init makes sure git ignores it and its backup.
   */
  readonly privateProjectSettings: boolean;
  /** Files an earlier version installed into for the scope: install moves our hooks out, uninstall and doctor look there. */
  legacySettingsPaths(scope: Scope, projectDir: string): string[];
  /**
   * Can its hooks call the local HTTP hook server (`syt serve`)? No: `syt init --http` and `syt serve` refuse it. The
   * hooks then carry a token, so a project's go only into a file git ignores (init makes sure).
   */
  readonly httpHooks: boolean;
  /** The install plans, loaded when `syt init` asks for them, never by a hook call: `() => import('./install.ts')`. */
  installer(): Promise<Installer>;
  /** What to do after `syt init` installed the hooks in `path`, one paragraph per line (none: nothing to add). */
  nextSteps(path: string, target: InstallTarget['kind'], scope: Scope, programName: string): string[];
  /** The agent's own program, so `--harness all` can tell which agents this machine has. */
  readonly client: AgentClient;
  /** The files that hold our hooks (or plugin) for this agent now, in either scope: none means not set up. */
  ourFiles(projectDir: string, env: Readonly<Record<string, string | undefined>>): Promise<string[]>;
  /** Every check `syt doctor --harness NAME` reports, in order; the probes do the process and network I/O. */
  doctor(projectDir: string, env: Readonly<Record<string, string | undefined>>, probes: DoctorProbes): Promise<DoctorCheck[]>;
}

/** An agent's program: the variable naming its binary, and the binary on PATH when the variable is unset. */
export interface AgentClient {
  readonly variable: string;
  readonly bin: string;
}

/** What doctor asks of the machine, supplied by commands/doctor.ts so a harness stays pure and file-reading. */
export interface DoctorProbes {
  /** The stdout of `BIN --version`, or null when it did not run. */
  version(bin: string): string | null;
  /** Is the data directory writable (the check every harness shares)? */
  dataDir(): DoctorCheck;
  /** Does the hook server behind this hook URL answer its health check? */
  serverCheck(hookUrl: string): Promise<DoctorCheck>;
}

/** The cheap part, on the hook's hot path: a name, a recogniser and a few facts (src/harness/load.ts loads the rest). */
export interface HarnessEntry {
  readonly name: string;
  /** Does this hook stdin document come from this harness? Must not load anything. */
  readonly recognises: (raw: Record<string, unknown>) => boolean;
  /** The variable the harness sets for the shell commands it runs, naming the session (null: it sets none, and the
   * adapter passes TOKENLESS_SESSION_ID itself). Hook events carry `session_id` in their own stdin. */
  readonly sessionEnv: string | null;
}
