import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import * as z from 'zod/mini';
import { simulateTranscript } from '../src/analyze/manager.ts';
import { transcriptReport, type TranscriptReport } from '../src/analyze/log-report.ts';
import { projectReport } from '../src/analyze/project-report.ts';
import { scanProject } from '../src/analyze/project-scan.ts';
import { loadBudgetSettings, pickProfile, type BudgetSettings } from '../src/budget/settings.ts';
import type { BudgetProfile } from '../src/budget/types.ts';
import { loadConfig } from '../src/config/config.ts';
import { summarizeOutputs, type ReplaySummary } from '../src/replay/outputs-summary.ts';
import { openReplaySandbox } from '../src/replay/sandbox.ts';
import { REPLAY_MODES, replaySession, type CallReplay, type ReplayMode } from '../src/replay/session-replay.ts';
import { tokenCounter } from '../src/tokens/count.ts';
import { CliError, usageError } from './shared/errors.ts';
import { parseOptions } from './shared/options.ts';
import { progress } from './shared/progress.ts';
import { terminalWidth } from './shared/terminal.ts';
import { readTranscripts, type SourcedTranscript } from './shared/transcript-sources.ts';

const Options = z.object({
  log: z.optional(z.string()),
  profile: z.optional(z.string()),
  contextWindow: z.optional(z.string().check(z.regex(/^\d+$/u, 'a whole number of tokens'))),
  replay: z.optional(z.boolean()),
  mode: z.optional(z.enum(REPLAY_MODES)),
  json: z.optional(z.boolean()),
});

/** `syt analyze [DIR]` and `syt analyze --log PATH`. */
export async function analyzeCommand(dir: string, raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, 'analyze');
  const settings = loadBudgetSettings(loadConfig().dataDir);
  const profile = pickProfile(settings, options.profile);
  if (profile === null) throw usageError(`syt analyze: unknown profile ${options.profile ?? settings.profileName} (chat, agentic, rag${Object.keys(settings.customProfiles).map((n) => `, ${n}`).join('')})`);
  const contextWindow = options.contextWindow !== undefined ? Number(options.contextWindow) : settings.contextWindow;
  if (contextWindow <= 0) throw usageError('syt analyze: --context-window must be positive');
  const count = await tokenCounter();
  if (options.log !== undefined) {
    await analyzeLog(options.log, { profile, contextWindow, settings, replay: options.replay !== false, mode: options.mode ?? 'default', json: options.json === true }, count);
    return;
  }
  const project = projectDir(dir);
  const report = projectReport(project, scanProject(project), count, profile, contextWindow);
  if (options.json === true) {
    process.stdout.write(`${JSON.stringify(report)}\n`);
    return;
  }
  const { renderProjectBudget } = await import('./ui/BudgetView.tsx');
  process.stdout.write(`${renderProjectBudget(report, terminalWidth())}\n`);
}

interface LogOptions {
  readonly profile: BudgetProfile;
  readonly contextWindow: number;
  readonly settings: BudgetSettings;
  readonly replay: boolean;
  /** The permission mode the replayed hooks see: `default`, as `npm run bench:sessions` and `syt cost history` headline. */
  readonly mode: ReplayMode;
  readonly json: boolean;
}

async function analyzeLog(path: string, options: LogOptions, count: (text: string) => number): Promise<void> {
  const reading = progress('reading transcripts');
  const sources = readTranscripts(path, count, (done, total) => reading.update(done, total));
  const transcripts = sources.map((source) => source.transcript);
  reading.end();
  const analysing = progress('analysing transcripts');
  const reports: TranscriptReport[] = transcripts.map((t, i) => {
    analysing.update(i + 1, transcripts.length);
    return transcriptReport(t, count);
  });
  const managerOptions = { contextWindow: options.contextWindow, profile: options.profile, staleAfterTurns: options.settings.staleAfterTurns, compactEveryTurns: 10 };
  const managed = transcripts.map((t, i) => simulateTranscript(t, reports[i]?.fills.prefix_tokens_inferred ?? 0, count, managerOptions));
  analysing.end();
  const replaying = progress('replaying tool calls through our hooks');
  const replay = options.replay ? await replayIsolated(sources, options.mode, count, (done, total) => replaying.update(done, total)) : null;
  replaying.end();
  const document = {
    token_method: 'o200k',
    context_note: 'Per-request context = input + cache read + cache write as reported by the transcript (aider: its "Tokens: N sent"; SWE-agent: counted from the history with o200k).',
    profile: options.profile.name,
    context_window: options.contextWindow,
    totals: {
      transcripts: reports.length,
      requests: reports.reduce((sum, r) => sum + r.totals.requests, 0),
      cumulative_context: reports.reduce((sum, r) => sum + r.totals.cumulative_context, 0),
      tool_results_tokens: reports.reduce((sum, r) => sum + r.fills.tool_results_tokens, 0),
      compactions: reports.reduce((sum, r) => sum + r.compactions.length, 0),
    },
    transcripts: reports.map((report, i) => ({ ...report, manager: managerSummary(managed[i]) })),
    replay,
  };
  if (options.json) {
    process.stdout.write(`${JSON.stringify(document)}\n`);
    return;
  }
  const { renderLogReport } = await import('./ui/AnalyzeLog.tsx');
  process.stdout.write(`${renderLogReport(document, terminalWidth())}\n`);
}

function managerSummary(result: ReturnType<typeof simulateTranscript> | undefined): { baseline_tokens: number; managed_tokens: number; saved_share: number; compaction_events: number; note: string } | null {
  if (result === undefined) return null;
  return {
    baseline_tokens: result.baselineTotal,
    managed_tokens: result.managedTotal,
    saved_share: result.savedShare,
    compaction_events: result.compactionEvents,
    note: 'simulated: our budget manager (staleness eviction + ladder) over the messages counted with o200k, summed over requests',
  };
}

/** The session replay in its sandbox (a throw-away HOME and data dir), so nothing reaches the user's stash, stats or settings. */
async function replayIsolated(sources: readonly SourcedTranscript[], mode: ReplayMode, count: (text: string) => number, onProgress: (done: number, total: number) => void): Promise<ReplaySummary> {
  const sandbox = openReplaySandbox();
  try {
    const calls: CallReplay[] = [];
    for (const [i, source] of sources.entries()) {
      const session = source.replayInput();
      calls.push(...(await replaySession(session, sandbox.contextFor(session, mode, count))).calls);
      onProgress(i + 1, sources.length);
    }
    return summarizeOutputs(calls, mode);
  } finally {
    sandbox.close();
  }
}

/** The project directory, absolute; a missing path or a file is an error, never an empty budget. */
function projectDir(dir: string): string {
  const path = resolve(dir);
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new CliError(`syt analyze: no such directory: ${dir}`);
  }
  if (!stat.isDirectory()) throw usageError(`syt analyze: ${dir} is a file, not a project directory (for a transcript: syt analyze --log ${dir})`);
  return path;
}
