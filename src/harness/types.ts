/**
 * One coding agent ("harness") behind one interface: how to recognise its hook events, how to answer a lifecycle in
 * its dialect, where its session id comes from, how to install and uninstall its hooks, and what `doctor` checks.
 * Everything here is pure or reads files; process I/O stays in hooks/ and commands/.
 */
import type { Lifecycle } from '../protocol/schemas.ts';
import type { Runtime } from '../runtime/runtime.ts';

export const HARNESS_NAMES = ['claude-code', 'gemini-cli', 'codex'] as const;
export type HarnessName = (typeof HARNESS_NAMES)[number];

/** answer: the JSON document to print (null: print nothing, the tool runs unchanged). error: the event is malformed. */
export type HarnessAnswer = { readonly answer: object | null; readonly note: string } | { readonly error: string };

export interface AnswerContext {
  /** Our binary, absolute and shell-quoted, for rewritten commands. */
  readonly wrapperCommand: string;
  /** The hook's environment (HOME, the harness's project and session variables). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Where our hooks send their calls. */
export type InstallTarget = { readonly kind: 'command'; readonly wrapperCommand: string };

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
  readonly name: HarnessName;
  /** One lifecycle call; the event was recognised as this harness's by its HarnessEntry. */
  answer(lifecycle: Lifecycle, raw: Record<string, unknown>, runtime: Runtime, context: AnswerContext): Promise<HarnessAnswer>;
  /** The settings file `syt init` edits for a scope. */
  settingsPath(scope: Scope, projectDir: string, env: Readonly<Record<string, string | undefined>>): string;
  /** Files an earlier version installed into for the scope: install moves our hooks out, uninstall and doctor look there. */
  legacySettingsPaths?(scope: Scope, projectDir: string): string[];
  planInstall(original: string | null, target: InstallTarget): InstallPlan;
  planUninstall(current: string | null, backup: string | null): UninstallPlan;
  /** What `syt doctor --harness NAME` reports, beyond the checks every harness shares (data directory). */
  doctor(projectDir: string, env: Readonly<Record<string, string | undefined>>): DoctorCheck[];
}

/** The cheap part, on the hook's hot path: a name, a recogniser and a lazy loader. */
export interface HarnessEntry {
  readonly name: HarnessName;
  /** Does this hook stdin document come from this harness? Must not load anything. */
  readonly recognises: (raw: Record<string, unknown>) => boolean;
  /** The variable the harness sets for the shell commands it runs, naming the session (null: it sets none, and the
   * adapter passes TOKENLESS_SESSION_ID itself). Hook events carry `session_id` in their own stdin. */
  readonly sessionEnv: string | null;
  readonly load: () => Promise<Harness>;
}
