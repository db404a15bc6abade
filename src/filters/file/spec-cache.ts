/**
 * Validated specs by file content, in the data dir, so the hook turns unchanged filter files into filters without
 * the TOML parser or zod (parsing twenty files cold cost about 13 ms a hook call; the cache read costs about one).
 * Keyed by the file's path (a one-filter file is named after it) and used only while the file's text is the text
 * stored with it: comparing the text needs no hash, so the hook never loads node:crypto for a person's own files.
 * Only files without problems are cached, and a missing or damaged cache only means parsing again.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from '../../store/data-dir.ts';
import type { RawFilterFile } from './files.ts';
import type { NamedSpecs } from './parse.ts';

const CACHE_VERSION = 2;
const CACHE_MAX_BYTES = 4 * 1024 * 1024;

export interface SpecCacheEntry {
  readonly text: string;
  readonly specs: NamedSpecs;
}

/** The cached specs of this file, if they were made from the text it has now. */
export function cachedSpecs(cache: ReadonlyMap<string, SpecCacheEntry>, file: Pick<RawFilterFile, 'path' | 'text'>): NamedSpecs | undefined {
  const entry = cache.get(file.path);
  return entry?.text === file.text ? entry.specs : undefined;
}

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
    return new Map(entries.filter((pair): pair is [string, SpecCacheEntry] => typeof pair[1]?.text === 'string' && Array.isArray(pair[1].specs)));
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
