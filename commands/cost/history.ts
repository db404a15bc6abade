/**
 * `syt cost history [PATH…]`: over a person's own Claude Code transcripts, what they were billed, what the hooks and
 * each cache policy would have saved, each figure beside the simulator's validation error. Every session goes through
 * the session replay (the hooks `syt init` installs, in process and offline) and then the cache simulator, exactly as
 * `npm run bench:sessions` and `syt cost simulate --hooks` do, in one pass.
 */
import * as z from 'zod/mini';
import { historyReport, hookReplayFacts, hookSavingsOf, type HistorySession, type SkippedFile } from '../../src/cost/history.ts';
import { readSimSession } from '../../src/cost/requests.ts';
import { readBoundedText } from '../../src/io/bounded-read.ts';
import { reportSession } from '../../src/cost/simulate-report.ts';
import { openReplaySandbox, type ReplaySandbox } from '../../src/replay/sandbox.ts';
import { replaySession } from '../../src/replay/session-replay.ts';
import { readRecordedSession } from '../../src/replay/transcript.ts';
import { recordLines } from '../../src/transcript/records.ts';
import { tokenCounter } from '../../src/tokens/count.ts';
import { CliError } from '../shared/errors.ts';
import { parseOptions } from '../shared/options.ts';
import { progress } from '../shared/progress.ts';
import { digits, parseSince, toInt, writeJson } from '../shared/stats-common.ts';
import { selectTranscripts, type FoundTranscript } from '../shared/history-files.ts';

const COMMAND = 'cost history';

const Options = z.object({
  claudeDir: z.optional(z.string()),
  since: z.optional(z.string()),
  project: z.optional(z.string().check(z.minLength(1))),
  maxSessions: z.optional(digits),
  maxSeconds: z.optional(digits),
  json: z.optional(z.boolean()),
});

/** Transcripts are read whole: a file over this is skipped (and counted), so one huge log cannot exhaust memory. */
export const MAX_TRANSCRIPT_BYTES = 64 << 20;
export const DEFAULT_MAX_SESSIONS = 500;
export const DEFAULT_MAX_SECONDS = 300;
/** The progress line appears only for a run that has already taken this long. */
const QUIET_MS = 1000;

export async function costHistoryCommand(paths: readonly string[], raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, COMMAND);
  const since = parseSince(options.since, Date.now(), COMMAND);
  const selection = selectTranscripts(
    { paths, claudeDir: options.claudeDir, project: options.project, since, maxSessions: toInt(options.maxSessions, DEFAULT_MAX_SESSIONS) },
    COMMAND,
  );
  const deadline = Date.now() + toInt(options.maxSeconds, DEFAULT_MAX_SECONDS) * 1000;
  const { sessions, skipped, overTime } = await readSessions(selection.taken, deadline);
  const report = historyReport(sessions, [...selection.skipped, ...skipped], { ...selection.notTaken, over_time: overTime });
  const full = { source: selection.source, transcripts_found: selection.found, ...report };
  if (options.json === true) writeJson(full);
  else {
    const { renderHistory } = await import('../shared/history-table.ts');
    process.stdout.write(renderHistory(full));
  }
  // Transcripts were there and not one could be read: the operation failed (README "Exit codes"), after the report.
  const failed = report.skipped.filter((s) => s.reason === 'unreadable' || s.reason === 'too large' || s.reason === 'failed');
  if (sessions.length === 0 && failed.length > 0 && failed.length === report.skipped.length) {
    throw new CliError(`tokenless ${COMMAND}: none of the ${failed.length} transcript(s) could be read (${failed[0]?.path}: ${failed[0]?.detail})`);
  }
}

async function readSessions(taken: readonly FoundTranscript[], deadline: number): Promise<{ sessions: HistorySession[]; skipped: SkippedFile[]; overTime: number }> {
  const sessions: HistorySession[] = [];
  if (taken.length === 0) return { sessions, skipped: [], overTime: 0 };
  // Loading the tokenizer takes a while: only once a file is worth counting.
  let count: ((text: string) => number) | null = null;
  const counter = async (): Promise<(text: string) => number> => (count ??= await tokenCounter());
  const skipped: SkippedFile[] = [];
  const shown = progress('replaying sessions', process.stderr, Date.now, QUIET_MS);
  const sandbox = openReplaySandbox();
  try {
    for (const [i, transcript] of taken.entries()) {
      if (Date.now() >= deadline) return { sessions, skipped, overTime: taken.length - i };
      shown.update(i, taken.length);
      const outcome = await readSession(transcript, sandbox, counter);
      if ('reason' in outcome) skipped.push(outcome);
      else sessions.push(outcome);
    }
    return { sessions, skipped, overTime: 0 };
  } finally {
    shown.end();
    sandbox.close();
  }
}

async function readSession(
  t: FoundTranscript,
  sandbox: ReplaySandbox,
  counter: () => Promise<(text: string) => number>,
): Promise<HistorySession | SkippedFile> {
  const skip = (reason: SkippedFile['reason'], detail: string): SkippedFile => ({ path: t.path, reason, detail });
  // Regular files only, never past the bound: a FIFO or a link to /dev/zero is skipped, not waited on or read forever.
  const read = readBoundedText(t.path, { maxBytes: MAX_TRANSCRIPT_BYTES });
  if (!read.ok) return skip(read.failure === 'too large' ? 'too large' : 'unreadable', read.reason);
  const text = read.text;
  try {
    const recorded = readRecordedSession(text, t.label);
    const lines = recordLines(text).filter((line) => line.trim() !== '').length;
    if (lines === 0 || recorded.skippedLines === lines) return skip('not a transcript', lines === 0 ? 'empty' : 'no line is a Claude Code transcript line (JSON with a type)');
    if (recorded.requests.length === 0) return skip('no billed requests', 'nothing to price (no assistant line with usage)');
    const count = await counter();
    // The replay and the stable-prefix estimate count the same texts: once each, for this session only.
    const counted = new Map<string, number>();
    const countTokens = (text: string): number => {
      let n = counted.get(text);
      if (n === undefined) counted.set(text, (n = count(text)));
      return n;
    };
    let hooks: { savings: Map<string, number>; facts: ReturnType<typeof hookReplayFacts> } | null = null;
    let hooksError: string | null = null;
    try {
      const replay = await replaySession(recorded, sandbox.contextFor(recorded, 'default', countTokens));
      hooks = { savings: hookSavingsOf(replay.calls), facts: hookReplayFacts(replay.calls) };
    } catch (error) {
      hooksError = (error as Error).message;
    }
    const sim = readSimSession(text, t.label);
    const report = reportSession(sim, { countTokens, ...(hooks === null ? {} : { hookSavings: hooks.savings }) });
    const first = sim.requests.find((r) => Number.isFinite(r.sentAt) && r.sentAt > 0);
    return {
      ...report,
      path: t.path,
      project: t.project,
      started: first === undefined ? null : new Date(first.sentAt).toISOString(),
      models: [...new Set(sim.requests.map((r) => r.usage.model))].sort(),
      malformed_lines: recorded.skippedLines,
      hooks_replay: hooks?.facts ?? null,
      hooks_error: hooksError,
    };
  } catch (error) {
    return skip('failed', (error as Error).message);
  }
}
