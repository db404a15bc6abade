/** `syt cost simulate TRANSCRIPT…`: reproduce each session's recorded cache usage, then price what each policy changes. */
import { basename } from 'node:path';
import * as z from 'zod/mini';
import { readSimSession } from '../../src/cost/requests.ts';
import { FOLD_DEFAULTS } from '../../src/gateway/fold.ts';
import { readBoundedText } from '../../src/io/bounded-read.ts';
import { MAX_VALIDATION_ERROR, POLICIES, TTL_POLICIES, reportSession, totalReport, type PolicySaving, type SessionReport } from '../../src/cost/simulate-report.ts';
import { tokenCounter } from '../../src/tokens/count.ts';
import { CliError, usageError } from '../shared/errors.ts';
import { parseOptions } from '../shared/options.ts';
import { digits, usd, writeJson } from '../shared/stats-common.ts';

const Options = z.object({ hooks: z.optional(z.string()), tools: z.optional(z.string()), insertPause: z.optional(digits), json: z.optional(z.boolean()) });

/** A captured Messages request (a bare body, or the fake server's record with the body under `body`): its tools. */
const CapturedTools = z.union([
  z.object({ tools: z.array(z.looseObject({})) }),
  z.object({ body: z.object({ tools: z.array(z.looseObject({})) }) }),
]);

/** Transcripts are read whole: bound them so a wrong path (a disk image) fails clearly instead of exhausting memory. */
const MAX_TRANSCRIPT_BYTES = 256 << 20;

/** The part of `node scripts/bench-sessions.mjs --json` read here: per replayed call, o200k tokens before and after. */
const HookReplay = z.object({
  calls: z.object({ default: z.array(z.object({ session: z.string(), toolUseId: z.string(), before: z.number(), after: z.number() })) }),
});

export async function costSimulateCommand(files: readonly string[], raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, 'cost simulate');
  if (files.length === 0) throw usageError('tokenless cost simulate: name at least one Claude Code transcript (.jsonl)');
  const texts = files.map((file) => ({ file, text: readTranscript(file) }));
  const hooks = options.hooks === undefined ? undefined : readHookSavings(options.hooks);
  const tools = options.tools === undefined ? undefined : readTools(options.tools);
  // A file with no request the client recorded usage for is no transcript (`cost simulate /etc/passwd`): a report of
  // zeros would read as a session that cost nothing.
  const read = texts.map(({ file, text }) => {
    const session = readSimSession(text, basename(file));
    if (session.requests.length === 0) throw usageError(`tokenless cost simulate: ${file} is not a Claude Code transcript (no request with recorded usage in it)`);
    return session;
  });
  const countTokens = await tokenCounter();
  const sessions = read.map((session) =>
    reportSession(session, {
      countTokens,
      ...(hooks === undefined ? {} : { hookSavings: hooks.get(session.file) ?? new Map() }),
      ...(tools === undefined ? {} : { tools }),
      ...(options.insertPause === undefined ? {} : { insertPauseMs: Number(options.insertPause) * 60_000 }),
    }),
  );
  const report = totalReport(sessions);
  const kept = sessions.filter((s) => s.excluded === null);
  if (options.json === true) return writeJson(report);
  const { renderStatsReport } = await import('../ui/StatsTable.tsx');
  const saving = (s: PolicySaving | null, session: SessionReport) =>
    session.excluded !== null ? 'not claimed' : s === null ? '-' : `${usd(s.dollars)} (${(s.fraction * 100).toFixed(1)}%)`;
  const errorPct = (n: number) => `${(n * 100).toFixed(2)}%`;
  process.stdout.write(
    renderStatsReport({
      header: [
        `${sessions.length} session(s), ${report.excluded.length} not reproduced within ${MAX_VALIDATION_ERROR * 100}% and left out of the totals`,
        `reproduced sessions: recorded ${usd(report.recorded_cost)}, simulated ${usd(report.reproduced_cost)} (largest validation error ${errorPct(report.validation_error)}), with the hooks, the folds and the online TTL rule: ${usd(report.simulated_cost)}`,
        // A person cannot configure hindsight (issue 27): the bound is its own line, never part of the claim above.
        `best possible, hindsight (an upper bound, not a saving): per session whichever TTL policy saved most there, ${usd(report.hindsight_cost)}`,
        ...(options.insertPause === undefined ? [] : [`priced with a ${options.insertPause}-minute pause inserted before each session's middle request (validated as recorded; simulated costs are the paused sessions')`]),
      ],
      sections: [
        {
          title: 'sessions',
          columns: [
            { header: 'session', align: 'left', max: 44 },
            { header: 'requests', align: 'right' },
            { header: 'pauses >5m', align: 'right' },
            { header: 'error', align: 'right' },
            { header: 'recorded', align: 'right' },
            { header: 'simulated', align: 'right' },
            { header: 'hooks', align: 'right' },
            { header: 'fold_stale (folds)', align: 'right' },
            { header: 'tool_tiers', align: 'right' },
            { header: 'hindsight TTL pick (bound)', align: 'left' },
          ],
          rows: sessions.map((s) => {
            const ttl = s.hindsight_switched_on.find((name) => (TTL_POLICIES as readonly string[]).includes(name));
            return [
              s.file,
              String(s.requests),
              String(s.pauses_over_5m),
              errorPct(s.validation_error),
              usd(s.recorded_cost),
              usd(s.reproduced_cost),
              saving(s.savings.hooks, s),
              `${saving(s.savings.fold_stale, s)} (${s.fold.folds})`,
              saving(s.savings.tool_tiers, s),
              s.excluded !== null ? 'not claimed' : ttl === undefined ? 'none' : `${ttl} ${saving(s.savings[ttl], s)}`,
            ];
          }),
          empty: 'no sessions',
        },
        {
          title: `each policy over the ${kept.length} reproduced session(s) (validation error at most ${errorPct(report.validation_error)})`,
          columns: [
            { header: 'policy', align: 'left' },
            { header: 'saves', align: 'right' },
            { header: 'sessions where it pays', align: 'right' },
          ],
          rows: POLICIES.filter((name) => (name !== 'hooks' || hooks !== undefined) && (name !== 'tool_tiers' || tools !== undefined)).map((name) => {
            const dollars = kept.reduce((sum, s) => sum + (s.savings[name]?.dollars ?? 0), 0);
            const base = kept.reduce((sum, s) => sum + s.reproduced_cost, 0);
            return [name, `${usd(dollars)} (${base === 0 ? '0.0' : ((dollars / base) * 100).toFixed(1)}%)`, String(kept.filter((s) => (s.savings[name]?.dollars ?? 0) > 0).length)];
          }),
          empty: 'no reproduced sessions',
        },
      ],
      notes: [
        'error: the larger of cache-read and cache-write tokens misplaced by the simulation, summed over requests, over the recorded sum; savings are claimed only under 5%',
        'savings: simulated cost without the policy minus with it; negative: the policy would cost more',
        'ttl_1h_prefix / ttl_1h_all: the 1-hour TTL on the tools and system prompt / on every breakpoint; ttl_1h_prefix_after_pause: the prefix at 1 hour from the first pause over 5 minutes on (needs no hindsight); ttl_5m_conversation / ttl_5m_all: the prefix at 1 hour and the messages at 5 minutes / everything at 5 minutes',
        `fold_stale: the gateway folds old tool results of ${FOLD_DEFAULTS.minChars}+ characters, outside the last ${FOLD_DEFAULTS.keepTurns} user turns and not quoted since, on a request that comes after the cache expired (a folded result a later turn quotes is priced as retrieved); tool_tiers: the gateway stubs the tools a session has not used and that are not core, priced with the --tools array`,
        'ttl_online: every breakpoint at 5 minutes until the session has shown a pause over 5 minutes, then at 1 hour, decided per request from the gaps seen so far',
        'with the hooks, the folds and the online TTL rule: the headline, no choice made with hindsight; hindsight TTL pick: per session the TTL policy that saved most there, an upper bound only',
        keepWarmNote(kept),
        ...report.excluded.map((e) => `not reproduced: ${e.file}: ${e.reason}`),
        ...(hooks === undefined ? ['hooks not priced: pass --hooks with the output of `node scripts/bench-sessions.mjs --json`'] : []),
        ...(tools === undefined ? ['tool_tiers not priced: transcripts hold no tool definitions; pass --tools with a captured request of the client'] : []),
      ],
    }),
  );
}

function readTranscript(file: string): string {
  const read = readBoundedText(file, { maxBytes: MAX_TRANSCRIPT_BYTES });
  if (read.ok) return read.text;
  if (read.failure === 'missing') throw new CliError(`tokenless cost simulate: no such transcript: ${file}`);
  if (read.failure === 'too large') throw usageError(`tokenless cost simulate: ${file} is ${read.reason}`);
  throw new CliError(`tokenless cost simulate: cannot read ${file} (${read.reason})`);
}

/** Per transcript basename, tool_use id -> o200k tokens the hooks took out (before - after; negative when it grew). */
function readHookSavings(file: string): Map<string, Map<string, number>> {
  const parsed = HookReplay.safeParse(safeJson(readTranscript(file)));
  if (!parsed.success) throw usageError(`tokenless cost simulate: --hooks ${file} is not the output of \`node scripts/bench-sessions.mjs --json\``);
  const bySession = new Map<string, Map<string, number>>();
  for (const call of parsed.data.calls.default) {
    const calls = bySession.get(basename(call.session)) ?? new Map<string, number>();
    calls.set(call.toolUseId, call.before - call.after);
    bySession.set(basename(call.session), calls);
  }
  return bySession;
}

function readTools(file: string): readonly Record<string, unknown>[] {
  const parsed = CapturedTools.safeParse(safeJson(readTranscript(file)));
  if (!parsed.success) throw usageError(`tokenless cost simulate: --tools ${file} is not a captured Messages request with a tools array`);
  return 'tools' in parsed.data ? parsed.data.tools : parsed.data.body.tools;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * What `keep_warm` did (the gateway's --keep-warm), and how much of its cost is the pings after each session's last
 * request: a transcript does not record when the session ended, so those are all counted; with the session's end
 * right after its last request (SessionEnd reaching the gateway) they would not be sent.
 */
function keepWarmNote(kept: readonly SessionReport[]): string {
  const sum = (pick: (facts: SessionReport['keep_warm']) => number): number => kept.reduce((n, s) => n + pick(s.keep_warm), 0);
  const saved = kept.reduce((n, s) => n + (s.savings.keep_warm?.dollars ?? 0), 0);
  const base = kept.reduce((n, s) => n + s.reproduced_cost, 0);
  const tail = sum((f) => f.tail_dollars);
  const pct = (dollars: number): string => (base === 0 ? '0.0' : ((dollars / base) * 100).toFixed(1));
  return `keep_warm: every breakpoint at 5 minutes, pings over each pause of the main session while they cost less than one re-write (the gateway's --keep-warm): ${sum((f) => f.pings)} pings over ${sum((f) => f.gaps)} idle gaps (each session's last included), ${sum((f) => f.bridged)} bridged; ${usd(tail)} of its cost is pings after a session's last request, counted because a transcript does not record the session's end; had each session ended at its last request: ${usd(saved + tail)} (${pct(saved + tail)}%)`;
}
