/**
 * The isolated setup a session replay runs in: a temporary HOME and CLAUDE_CONFIG_DIR with no settings, a temporary
 * data dir for the stash and stats, and a fixed clock, so figures depend on nothing but the transcript and the code.
 * The project directory is the session's own recorded one (the permission check asks whether a path is inside it);
 * should that path exist here with Claude Code settings in it, an empty temporary project is used instead.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/config.ts';
import type { FileFilter } from '../filters/file/filter.ts';
import { Runtime } from '../runtime/runtime.ts';
import { turnTotals } from '../store/retrievals.ts';
import { withStatsReader } from '../store/stats-client.ts';
import type { ReplayContext, ReplayMode } from './session-replay.ts';
import type { RecordedSession } from './transcript.ts';

/** 2026-01-01T00:00:00Z: stash expiry and stats rows never depend on when the benchmark ran. */
export const REPLAY_NOW = 1_767_225_600_000;
/** What rewritten commands call: static words, like the absolute paths `syt init` writes. */
export const REPLAY_WRAPPER = "'/usr/bin/node' '/opt/tokenless/dist/cli.cjs'";

export interface ReplaySandbox {
  readonly runtime: Runtime;
  /** Everything replaySession needs for one session here: this runtime, the session's env (empty settings, its
   * project), our wrapper, and the runtime's clock, which the replay moves to each call's recorded time (REPLAY_NOW
   * until then). */
  contextFor(session: RecordedSession, mode: ReplayMode, countTokens: (text: string) => number): ReplayContext;
  /** Re-runs the loop breaker recorded so far (each ran raw, as will every later run of that command in its session). */
  reruns(): number;
  close(): void;
}

/** `fileFilters`: filter files the replayed hooks use, as if in the person's own folder (`syt discover`'s benchmark). */
export function openReplaySandbox(options: { readonly fileFilters?: readonly FileFilter[] } = {}): ReplaySandbox {
  const root = mkdtempSync(join(tmpdir(), 'tokenless-replay-'));
  const home = join(root, 'home');
  const emptyProject = join(root, 'project');
  mkdirSync(join(home, '.claude'), { recursive: true });
  mkdirSync(emptyProject);
  let now = REPLAY_NOW;
  const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: join(root, 'data'), HOME: home }), () => now, { fileFilters: options.fileFilters ?? [] });
  const setNow = (ms: number): void => {
    now = ms;
  };
  const envFor = (session: RecordedSession): Record<string, string> => {
    const recorded = session.projectDir;
    const hasSettings = (dir: string): boolean => ['settings.json', 'settings.local.json'].some((name) => existsSync(join(dir, '.claude', name)));
    const projectDir = recorded !== null && recorded.startsWith('/') && !hasSettings(recorded) ? recorded : emptyProject;
    // A person at the terminal UI (what the hook sees there: observed with 2.1.332), whose every command in the
    // transcript was approved and ran; headless `-p` sessions get no "ask" rewrites.
    return { HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude'), CLAUDE_PROJECT_DIR: projectDir, TOKENLESS_DATA_DIR: join(root, 'data'), CLAUDE_CODE_ENTRYPOINT: 'cli' };
  };
  return {
    runtime,
    contextFor: (session, mode, countTokens) => ({ runtime, env: envFor(session), wrapperCommand: REPLAY_WRAPPER, mode, countTokens, setNow }),
    reruns: () => withStatsReader(join(root, 'data'), 0, (db) => turnTotals(db).reruns),
    close() {
      runtime.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
