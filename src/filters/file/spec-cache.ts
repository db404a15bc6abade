/**
 * Validated specs by file content, in the data dir, so the hook turns unchanged filter files into filters without
 * the TOML parser or zod (parsing twenty files cold cost about 13 ms a hook call; the cache read costs about one).
 * Keyed by the file's path (a one-filter file is named after it) and used only while the file is unchanged: for a
 * person's own file, its stamp (inode, size, times: one lstat, the file is not read); for a project's file, which is
 * read anyway to check its trusted hash, its text.
 * Only files without problems are cached, and a missing or damaged cache only means parsing again.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from '../../store/data-dir.ts';
import type { NamedSpecs } from './parse.ts';

const CACHE_VERSION = 3;
const CACHE_MAX_BYTES = 4 * 1024 * 1024;

export interface SpecCacheEntry {
  readonly text: string;
  /** fileStamp when the text was read; null when it could not be told (then only the text decides). */
  readonly stamp: string | null;
  readonly specs: NamedSpecs;
  /** The program that validated the specs: a cache another version wrote is parsed again (its rules may differ). */
  readonly version: string;
}

declare const __VERSION__: string;
/** The program's version in a build, 'dev' under the tests' source runs. */
export const SPEC_CACHE_PROGRAM = typeof __VERSION__ === 'string' ? __VERSION__ : 'dev';

function cachePath(dataDir: string): string {
  return join(dataDir, 'filter-specs.json');
}

export function readSpecCache(dataDir: string): ReadonlyMap<string, SpecCacheEntry> {
  try {
    const raw = readFileSync(cachePath(dataDir));
    if (raw.length > CACHE_MAX_BYTES) return new Map();
    const parsed = JSON.parse(raw.toString('utf8')) as { version?: unknown; entries?: unknown };
    if (parsed.version !== CACHE_VERSION || typeof parsed.entries !== 'object' || parsed.entries === null) return new Map();
    const entries = Object.entries(parsed.entries as Record<string, Partial<SpecCacheEntry> | null>);
    return new Map(entries.filter((pair): pair is [string, SpecCacheEntry] => isEntry(pair[1])));
  } catch {
    return new Map();
  }
}

/** Replaces the cache with these entries (files no longer present drop out); failures are ignored. */
export function writeSpecCache(dataDir: string, entries: ReadonlyMap<string, SpecCacheEntry>): void {
  try {
    ensurePrivateDir(dataDir);
    const target = cachePath(dataDir);
    const temporary = `${target}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify({ version: CACHE_VERSION, entries: Object.fromEntries(entries) }), { mode: 0o600 });
    renameSync(temporary, target);
  } catch {
    // The cache only saves time.
  }
}

function isEntry(entry: Partial<SpecCacheEntry> | null): entry is SpecCacheEntry {
  return (
    typeof entry?.text === 'string' &&
    (entry.stamp === null || typeof entry.stamp === 'string') &&
    Array.isArray(entry.specs) &&
    entry.version === SPEC_CACHE_PROGRAM
  );
}
