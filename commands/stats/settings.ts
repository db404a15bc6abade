/** `tokenless stats enable|disable|clear --yes`: the only stats commands that write. */
import * as z from 'zod/mini';
import { loadConfig } from '../../src/config/config.ts';
import { clearRecords, writeEnabled } from '../../src/store/stats-client.ts';
import { CliError, usageError } from '../shared/errors.ts';
import { parseOptions } from '../shared/options.ts';
import { writeJson } from '../shared/stats-common.ts';

const Options = z.object({ json: z.optional(z.boolean()), yes: z.optional(z.boolean()) });

export function statsEnableCommand(enabled: boolean, raw: unknown): void {
  const options = parseOptions(Options, raw, enabled ? 'stats enable' : 'stats disable');
  const dataDir = loadConfig().dataDir;
  guard(() => writeEnabled(dataDir, enabled));
  if (options.json === true) return writeJson({ enabled, data_dir: dataDir });
  process.stdout.write(`stats recording ${enabled ? 'enabled' : 'disabled'} (${dataDir})\n`);
}

export function statsClearCommand(raw: unknown): void {
  const options = parseOptions(Options, raw, 'stats clear');
  if (options.yes !== true) throw usageError('tokenless stats clear: deletes every record; run again with --yes');
  const dataDir = loadConfig().dataDir;
  const removed = guard(() => clearRecords(dataDir));
  if (options.json === true) return writeJson({ removed, data_dir: dataDir });
  process.stdout.write(`removed ${removed} record(s) from ${dataDir}\n`);
}

function guard<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    throw new CliError(`tokenless stats: stats.db cannot be written (${error instanceof Error ? error.message : String(error)})`);
  }
}
