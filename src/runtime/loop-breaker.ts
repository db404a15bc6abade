/**
 * The loop breaker (issue 23): a view the agent had to retrieve, or whose command it ran again, did not serve it, so
 * from then on that command runs raw in that session (never in another). pre_tool asks `shellLoopCheck` before
 * planning a rewrite: one small file read for a session with views, nothing at all for one without. A re-run is also
 * recorded in stats (sizes only); that opens SQLite, but only on the rare call that is a re-run.
 */
import { identityOfArgv, identityOfLine, matchRerun } from '../rewrite/rerun.ts';
import { markRaw, readLedger, recentViews, rememberView, RERUN_WINDOW_MS, runsRaw, viewByKey } from '../store/view-ledger.ts';
import { estimateTokens } from '../tokens/estimate.ts';
import type { Runtime } from './runtime.ts';

/** Sessions that are no agent's (`tokenless run` at a terminal, previews): nothing to remember or break. */
export function tracksSession(sessionId: string): boolean {
  return sessionId !== '' && sessionId !== 'cli';
}

export type LoopCheck = { readonly raw: false } | { readonly raw: true; readonly reason: string };

/**
 * Whether this shell line must run raw in the session: it is a command already switched to raw there, or a re-run
 * of one whose view was shown within the window (recorded, and switched to raw for the rest of the session).
 */
export function shellLoopCheck(runtime: Runtime, sessionId: string, command: string): LoopCheck {
  if (!tracksSession(sessionId)) return { raw: false };
  const dataDir = runtime.config.dataDir;
  const ledger = readLedger(dataDir, sessionId);
  if (ledger.views.length === 0 && ledger.raw.length === 0) return { raw: false };
  const line = identityOfLine(command);
  const now = runtime.now();
  if (runsRaw(ledger, line.identities, now)) return { raw: true, reason: 'loop breaker: this command runs raw in this session (its view was retrieved or re-run)' };
  const match = matchRerun(line, recentViews(ledger), now, RERUN_WINDOW_MS);
  if (match === null) return { raw: false };
  const { view } = match;
  try {
    markRaw(dataDir, sessionId, view.identity, 'rerun', now);
    for (const identity of line.identities) markRaw(dataDir, sessionId, identity, 'rerun', now);
  } catch {
    // The ledger is best effort: this run is raw all the same.
  }
  if (runtime.recordsStats && !runtime.config.dryRun) {
    runtime.stats.tryRecordRetrieval({
      sessionId,
      kind: 'rerun',
      stashKey: view.key,
      viewKind: view.kind,
      project: view.project ?? null,
      scope: 'rerun',
      how: match.how,
      printedBytes: 0,
      printedTokens: view.tokens ?? 0,
      program: view.identity.split(' ')[0],
    });
  }
  return { raw: true, reason: `loop breaker: re-run of a command whose view was just shown (${match.how}); it runs raw from now on in this session` };
}

/** Just whether the line runs raw (PostToolUse of a shell call: pre_tool already recorded why). */
export function shellRunsRaw(runtime: Runtime, sessionId: string, command: string): boolean {
  if (!tracksSession(sessionId)) return false;
  const ledger = readLedger(runtime.config.dataDir, sessionId);
  return ledger.raw.length > 0 && runsRaw(ledger, identityOfLine(command).identities, runtime.now());
}

export interface ShownView {
  readonly sessionId: string;
  /** The stash key of the original; undefined for a lossless view (nothing was held back). */
  readonly key: string | undefined;
  readonly kind: string;
  readonly project: string | undefined;
  /** Tokens of the original: what a re-run shows raw. */
  readonly tokens: number;
}

/** Remembers a shell view shown to the session, by the argv that produced it (best effort). */
export function rememberArgvView(runtime: Runtime, argv: readonly string[], shown: ShownView): void {
  remember(runtime, identityOfArgv(argv), shown, shown.key !== undefined);
}

/** Remembers a shell view by the typed line (PostToolUse of an unwrapped shell call): its first producer. */
export function rememberLineView(runtime: Runtime, command: string, shown: ShownView): void {
  const identity = identityOfLine(command).identities[0];
  if (identity === undefined) return;
  remember(runtime, { identity, files: identityOfArgv(identity.split(' ')).files }, shown, shown.key !== undefined);
}

function remember(runtime: Runtime, id: { identity: string; files: readonly string[] }, shown: ShownView, lossy: boolean): void {
  // A lossless view hid nothing: running its command again is the agent's own choice, not a loop this view caused
  // (the loop breaker's fallback for a command is lossless views, after all).
  if (!lossy || !tracksSession(shown.sessionId) || !runtime.recordsStats || runtime.config.dryRun || id.identity === '') return;
  try {
    rememberView(runtime.config.dataDir, shown.sessionId, {
      key: shown.key ?? '',
      kind: shown.kind,
      identity: id.identity,
      files: [...id.files],
      at: runtime.now(),
      tokens: shown.tokens,
      ...(shown.project !== undefined ? { project: shown.project } : {}),
    });
  } catch {
    // Best effort: a view not remembered is only a re-run not recognised.
  }
}

/**
 * A retrieval inside an agent session is a turn the view cost: recorded with its size (never its text), and the
 * view's command runs raw for the rest of the session (the loop breaker).
 */
export function recordRetrievalTurn(runtime: Runtime, sessionId: string, key: string, scope: 'whole' | 'targeted', printed: Uint8Array): void {
  const ledger = retrievedFromLedger(runtime, sessionId, key);
  const view = runtime.stats.viewOfKey(sessionId, key);
  runtime.stats.tryRecordRetrieval({
    sessionId,
    kind: 'retrieve',
    stashKey: key,
    viewKind: view?.viewKind ?? ledger?.kind ?? null,
    project: view?.project ?? ledger?.project ?? null,
    scope,
    printedBytes: printed.byteLength,
    printedTokens: estimateTokens(Buffer.from(printed).toString('utf8')),
  });
}

/** What a retrieval of this key in this session learns from the ledger, and the switch to raw it makes. */
function retrievedFromLedger(runtime: Runtime, sessionId: string, key: string): { kind: string; project: string | undefined } | null {
  if (!tracksSession(sessionId)) return null;
  const view = viewByKey(readLedger(runtime.config.dataDir, sessionId), key);
  if (view === undefined) return null;
  try {
    markRaw(runtime.config.dataDir, sessionId, view.identity, 'retrieve', runtime.now());
  } catch {
    // Best effort, as above.
  }
  return { kind: view.kind, project: view.project };
}
