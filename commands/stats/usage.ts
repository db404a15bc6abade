/** `tokenless stats usage [--log FILE | --claude-dir DIR]`: token usage and cost from Claude Code transcripts. */
import * as z from 'zod/mini';
import { loadConfig } from '../../src/config/config.ts';
import { usageReport, type UsageGroup } from '../../src/cost/usage-report.ts';
import { parseOptions } from '../shared/options.ts';
import { int, usd, writeJson } from '../shared/stats-common.ts';
import { loadUsageFrom } from '../shared/usage-source.ts';

const Options = z.object({ log: z.optional(z.string()), claudeDir: z.optional(z.string()), json: z.optional(z.boolean()) });

export async function statsUsageCommand(raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, 'stats usage');
  const loaded = loadUsageFrom(options, loadConfig().dataDir, false);
  const report = usageReport(loaded.requests);
  const files = { files: loaded.files, parsed: loaded.parsed, cached: loaded.cached };
  if (options.json === true) return writeJson({ source: loaded.source, ...files, ...report });
  const { renderStatsReport } = await import('../ui/StatsTable.tsx');
  const t = report.totals;
  process.stdout.write(
    renderStatsReport({
      header: [
        `transcripts ${loaded.files} file(s) from ${loaded.source} (${loaded.parsed} parsed, ${loaded.cached} unchanged since the last run)`,
        `requests ${int(t.requests)}  billed ${usd(t.cost)}  saved by the provider cache ${usd(t.cacheSaving)}`,
      ],
      sections: [section('by session', report.bySession), section('by model', report.byModel), section('by day (UTC)', report.byDay)],
      notes: [
        'one request = one message.id + requestId (Claude Code writes a line per content block; the largest count of each field is kept)',
        report.formulas.billed,
        report.formulas.cacheSaving,
        ...report.prices.map((p) => `price ${p.model}: ${p.priced_as === null ? 'unknown, not priced' : `as ${p.priced_as}, taken ${p.taken}`}`),
      ],
    }),
  );
}

function section(title: string, groups: readonly UsageGroup[]) {
  return {
    title,
    columns: [
      { header: title.replace(/^by /, '').replace(/ \(UTC\)$/, ''), align: 'left', max: 40, min: 20 },
      { header: 'requests', align: 'right', optional: 3 },
      { header: 'input', align: 'right' },
      { header: 'cache read', align: 'right' },
      { header: 'write 5m', align: 'right', optional: 2 },
      { header: 'write 1h', align: 'right', optional: 1 },
      { header: 'output', align: 'right' },
      { header: 'billed', align: 'right' },
      { header: 'cache saved', align: 'right' },
    ] as const,
    rows: groups.map((g) => [g.key, int(g.requests), int(g.input), int(g.cacheRead), int(g.cacheWrite5m), int(g.cacheWrite1h), int(g.output), usd(g.cost), usd(g.cacheSaving)]),
  };
}
