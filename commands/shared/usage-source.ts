/** Which transcripts a usage report reads: `--log FILE` (repeatable as a comma list), `--claude-dir DIR`, or the default Claude dir. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { defaultClaudeDir, findTranscripts } from '../../src/transcript/files.ts';
import { loadUsage, type LoadedUsage } from '../../src/transcript/usage-cache.ts';
import { CliError, usageError } from './errors.ts';
import { progress } from './progress.ts';

export interface UsageSource {
  readonly log?: string | undefined;
  readonly claudeDir?: string | undefined;
}

export function loadUsageFrom(source: UsageSource, dataDir: string, required: boolean): LoadedUsage & { readonly source: string } {
  if (source.log !== undefined && source.claudeDir !== undefined) throw usageError('give --log or --claude-dir, not both');
  if (source.log !== undefined) {
    const files = source.log.split(',').map((file) => resolve(file));
    const missing = files.find((file) => !existsSync(file));
    if (missing !== undefined) throw new CliError(`no such transcript: ${missing}`);
    return { ...withProgress((onProgress) => loadUsage(files, dataDir, onProgress)), source: files.join(',') };
  }
  const dir = resolve(source.claudeDir ?? defaultClaudeDir());
  if (!existsSync(dir) && (required || source.claudeDir !== undefined)) throw new CliError(`no such directory: ${dir}`);
  return { ...withProgress((onProgress) => loadUsage(findTranscripts(dir), dataDir, onProgress)), source: dir };
}

/** Parsing transcripts is the slow part of usage, cost and the dashboard: a progress line on a terminal's stderr. */
function withProgress<T>(run: (onProgress: (done: number, total: number) => void) => T): T {
  const shown = progress('reading transcripts');
  try {
    return run((done, total) => shown.update(done, total));
  } finally {
    shown.end();
  }
}
