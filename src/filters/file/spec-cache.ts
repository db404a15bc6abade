/**
 * Validated specs by file content, in the data dir, so the hook turns unchanged filter files into filters without
 * the TOML parser or zod (parsing twenty files cold cost about 13 ms a hook call; the cache read costs about one).
 * Keyed by the file's SHA-256 and its name (a one-filter file is named after it); only files without problems are
 * cached, and a missing or damaged cache only means parsing again.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ensurePrivateDir } from '../../store/data-dir.ts';
import type { RawFilterFile } from './files.ts';
import type { NamedSpecs } from './parse.ts';

const CACHE_VERSION = 1;
const CACHE_MAX_BYTES = 4 * 1024 * 1024;

export function specCacheKey(file: Pick<RawFilterFile, 'path' | 'hash'>): string {
  return `${file.hash}:${basename(file.path)}`;
}

function cachePath(dataDir: string): string {
  return join(dataDir, 'filter-specs.json');
}

export function readSpecCache(dataDir: string): ReadonlyMap<string, NamedSpecs> {
  try {
    const raw = readFileSync(cachePath(dataDir));
    if (raw.length > CACHE_MAX_BYTES) return new Map();
    const parsed = JSON.parse(raw.toString('utf8')) as { version?: unknown; entries?: unknown };
    if (parsed.version !== CACHE_VERSION || typeof parsed.entries !== 'object' || parsed.entries === null) return new Map();
    return new Map(Object.entries(parsed.entries as Record<string, NamedSpecs>).filter(([, specs]) => Array.isArray(specs)));
  } catch {
    return new Map();
  }
}

/** Replaces the cache with these entries (files no longer present drop out); failures are ignored. */
export function writeSpecCache(dataDir: string, entries: ReadonlyMap<string, NamedSpecs>): void {
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
