/** `syt cost simulate TRANSCRIPT…`: reproduce each session's recorded cache usage, then price what each policy changes. */
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import * as z from 'zod/mini';
import { readSimSession } from '../../src/cost/requests.ts';
import { MAX_VALIDATION_ERROR, reportSession, totalReport, type PolicySaving, type SessionReport } from '../../src/cost/simulate-report.ts';
import { tokenCounter } from '../../src/tokens/count.ts';
import { usageError } from '../errors.ts';
import { parseOptions } from '../options.ts';
import { usd, writeJson } from './common.ts';

const Options = z.object({ hooks: z.optional(z.string()), json: z.optional(z.boolean()) });

/** Transcripts are read whole: bound them so a wrong path (a disk image) fails clearly instead of exhausting memory. */
const MAX_TRANSCRIPT_BYTES = 256 << 20;

/** The part of `npm run bench:sessions -- --json` read here: per replayed call, o200k tokens before and after. */
const HookReplay = z.object({
  calls: z.object({ default: z.array(z.object({ session: z.string(), toolUseId: z.string(), before: z.number(), after: z.number() })) }),
});

export async function costSimulateCommand(files: readonly string[], raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, 'cost simulate');
  if (files.length === 0) throw usageError('tokenless cost simulate: name at least one Claude Code transcript (.jsonl)');
  const texts = files.map((file) => ({ file, text: readTranscript(file) }));
  const hooks = options.hooks === undefined ? undefined : readHookSavings(options.hooks);
  const countTokens = await tokenCounter();
  const sessions = texts.map(({ file, text }) =>
    reportSession(readSimSession(text, basename(file)), { countTokens, ...(hooks === undefined ? {} : { hookSavings: hooks.get(basename(file)) ?? new Map() }) }),
  );
  const report = totalReport(sessions);
  if (options.json === true) return writeJson(report);
  const { renderStatsReport } = await import('../ui/StatsTable.tsx');
  const saving = (s: PolicySaving | null, session: SessionReport) =>
    s === null ? '-' : session.excluded !== null ? 'not claimed' : `${usd(s.dollars)} (${(s.fraction * 100).toFixed(1)}%)`;
  const errorPct = (n: number) => `${(n * 100).toFixed(2)}%`;
  process.stdout.write(
    renderStatsReport({
      header: [
        `${sessions.length} session(s), ${report.excluded.length} not reproduced within ${MAX_VALIDATION_ERROR * 100}% and left out of the totals`,
        `reproduced sessions: recorded ${usd(report.recorded_cost)}, simulated ${usd(report.reproduced_cost)} (largest validation error ${errorPct(report.validation_error)}), with the policies that pay: ${usd(report.simulated_cost)}`,
      ],
      sections: [
        {
          title: 'sessions',
          columns: [
            { header: 'session', align: 'left', max: 44 },
            { header: 'requests', align: 'right' },
            { header: 'error', align: 'right' },
            { header: 'recorded', align: 'right' },
            { header: 'simulated', align: 'right' },
            { header: 'hooks', align: 'right' },
            { header: 'ttl 1h prefix', align: 'right' },
            { header: 'ttl 1h all', align: 'right' },
          ],
          rows: sessions.map((s) => [
            s.file,
            String(s.requests),
            errorPct(s.validation_error),
            usd(s.recorded_cost),
            usd(s.reproduced_cost),
            saving(s.savings.hooks, s),
            saving(s.savings.ttl_1h_prefix, s),
            saving(s.savings.ttl_1h_all, s),
          ]),
          empty: 'no sessions',
        },
      ],
      notes: [
        'error: the larger of cache-read and cache-write tokens misplaced by the simulation, summed over requests, over the recorded sum; savings are claimed only under 5%',
        'savings: simulated cost without the policy minus with it; negative: the policy would cost more',
        ...report.excluded.map((e) => `not reproduced: ${e.file}: ${e.reason}`),
        ...(hooks === undefined ? ['hooks not priced: pass --hooks with the output of `npm run bench:sessions -- --json`'] : []),
      ],
    }),
  );
}

function readTranscript(file: string): string {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    throw usageError(`tokenless cost simulate: cannot read ${file} (no such file)`);
  }
  if (size > MAX_TRANSCRIPT_BYTES) throw usageError(`tokenless cost simulate: ${file} is ${size} bytes, over the ${MAX_TRANSCRIPT_BYTES}-byte bound`);
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw usageError(`tokenless cost simulate: cannot read ${file} (${(error as Error).message})`);
  }
}

/** Per transcript basename, tool_use id -> o200k tokens the hooks took out (before - after; negative when it grew). */
function readHookSavings(file: string): Map<string, Map<string, number>> {
  const parsed = HookReplay.safeParse(safeJson(readTranscript(file)));
  if (!parsed.success) throw usageError(`tokenless cost simulate: --hooks ${file} is not the output of \`npm run bench:sessions -- --json\``);
  const bySession = new Map<string, Map<string, number>>();
  for (const call of parsed.data.calls.default) {
    const calls = bySession.get(basename(call.session)) ?? new Map<string, number>();
    calls.set(call.toolUseId, call.before - call.after);
    bySession.set(basename(call.session), calls);
  }
  return bySession;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
