import * as z from 'zod/mini';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.ts';
import { inspectStats, type StatsHealth } from '../../src/store/stats-health.ts';
import { parseOptions } from '../shared/options.ts';
import { int } from '../ui/format.ts';

const Options = z.object({ json: z.optional(z.boolean()) });

/** `tokenless stats status`: exit 1 when the stats DB is damaged (lifecycles keep working regardless). */
export function statsStatusCommand(raw: unknown): void {
  const options = parseOptions(Options, raw, 'stats status');
  const config = loadConfig();
  const health = inspectStats(config.dataDir);
  const report = {
    data_dir: config.dataDir,
    data_dir_exists: existsSync(config.dataDir),
    stats_db: join(config.dataDir, 'stats.db'),
    ...health,
    dry_run: config.dryRun,
    disabled: config.disabled,
    config_error: config.configError,
  };
  process.stdout.write(options.json === true ? `${JSON.stringify(report)}\n` : render(report, health));
  if (health.health === 'damaged') process.exitCode = 1;
}

function render(report: { data_dir: string; config_error: string | null; dry_run: boolean; disabled: boolean }, health: StatsHealth): string {
  const lines = [
    `data dir   ${report.data_dir}`,
    `stats      ${health.health}${health.detail !== null ? ` (${health.detail})` : ''}`,
    `recording  ${health.enabled ? 'enabled' : 'disabled'}${report.dry_run ? ', dry run' : ''}${report.disabled ? ', TOKENLESS_DISABLED set' : ''}`,
    `records    ${int(health.records)}`,
  ];
  if (report.config_error !== null) lines.push(`config     ${report.config_error}`);
  return `${lines.join('\n')}\n`;
}
