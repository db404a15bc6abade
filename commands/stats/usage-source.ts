/** Which transcripts a usage report reads: `--log FILE` (repeatable as a comma list), `--claude-dir DIR`, or the default Claude dir. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { defaultClaudeDir, findTranscripts } from '../../src/transcript/files.ts';
import { loadUsage, type LoadedUsage } from '../../src/transcript/usage-cache.ts';
import { CliError, usageError } from '../errors.ts';

export interface UsageSource {
  readonly log?: string | undefined;
  readonly claudeDir?: string | undefined;
}

export function loadUsageFrom(source: UsageSource, dataDir: string, required: boolean): LoadedUsage & { readonly source: string } {
  if (source.log !== undefined && source.claudeDir !== undefined) throw usageError('tokenless: give --log or --claude-dir, not both');
  if (source.log !== undefined) {
    const files = source.log.split(',').map((file) => resolve(file));
    const missing = files.find((file) => !existsSync(file));
    if (missing !== undefined) throw new CliError(`tokenless: no such transcript: ${missing}`);
    return { ...loadUsage(files, dataDir), source: files.join(',') };
  }
  const dir = resolve(source.claudeDir ?? defaultClaudeDir());
  if (!existsSync(dir) && (required || source.claudeDir !== undefined)) throw new CliError(`tokenless: no such directory: ${dir}`);
  return { ...loadUsage(findTranscripts(dir), dataDir), source: dir };
}
