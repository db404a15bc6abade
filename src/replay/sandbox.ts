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
import type { RecordedSession } from './transcript.ts';

/** 2026-01-01T00:00:00Z: stash expiry and stats rows never depend on when the benchmark ran. */
export const REPLAY_NOW = 1_767_225_600_000;
/** What rewritten commands call: static words, like the absolute paths `syt init` writes. */
export const REPLAY_WRAPPER = "'/usr/bin/node' '/opt/tokenless/dist/cli.cjs'";

export interface ReplaySandbox {
  readonly runtime: Runtime;
  envFor(session: RecordedSession): Record<string, string>;
  close(): void;
}

/** `fileFilters`: filter files the replayed hooks use, as if in the person's own folder (`syt discover`'s benchmark). */
export function openReplaySandbox(options: { readonly fileFilters?: readonly FileFilter[] } = {}): ReplaySandbox {
  const root = mkdtempSync(join(tmpdir(), 'tokenless-replay-'));
  const home = join(root, 'home');
  const emptyProject = join(root, 'project');
  mkdirSync(join(home, '.claude'), { recursive: true });
  mkdirSync(emptyProject);
  const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: join(root, 'data'), HOME: home }), () => REPLAY_NOW, { fileFilters: options.fileFilters ?? [] });
  return {
    runtime,
    envFor(session) {
      const recorded = session.projectDir;
      const hasSettings = (dir: string): boolean => ['settings.json', 'settings.local.json'].some((name) => existsSync(join(dir, '.claude', name)));
      const projectDir = recorded !== null && recorded.startsWith('/') && !hasSettings(recorded) ? recorded : emptyProject;
      // A person at the terminal UI (what the hook sees there: observed with 2.1.332), whose every command in the
      // transcript was approved and ran; headless `-p` sessions get no "ask" rewrites.
      return { HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude'), CLAUDE_PROJECT_DIR: projectDir, TOKENLESS_DATA_DIR: join(root, 'data'), CLAUDE_CODE_ENTRYPOINT: 'cli' };
    },
    close() {
      runtime.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
