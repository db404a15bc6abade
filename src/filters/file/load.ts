/**
 * Reads the filter files of both folders into one set: the filters that may run (the person's own, and the
 * project's that are trusted at their current hash), every file with its state, and every problem with file and
 * line. Never throws: a bad file is a problem in the set, never a broken hook. Refreshes the spec cache the hook
 * reads (spec-cache.ts).
 */
import { filtersFromSpecs } from './build.ts';
import { isTrusted, readFilterFiles, type FilterFileEntry, type FilterSet } from './files.ts';
import type { FilterDirs } from './locate.ts';
import { parseSpecs } from './parse.ts';
import { contentHash } from './content-hash.ts';
import { readSpecCache, SPEC_CACHE_PROGRAM, writeSpecCache, type SpecCacheEntry } from './spec-cache.ts';
import { readTrust } from './trust.ts';

export function loadFilterSet(dirs: FilterDirs, dataDir: string): FilterSet {
  const trust = readTrust(dataDir);
  const { files: raw, problems } = readFilterFiles(dirs);
  const cached = readSpecCache(dataDir);
  const cache = new Map<string, SpecCacheEntry>();
  const files: FilterFileEntry[] = raw.map((file) => {
    const specs = parseSpecs(file.text, file.path);
    const hash = contentHash(file.text);
    if (!specs.ok) {
      problems.push(...specs.problems);
      return { path: file.path, scope: file.scope, hash, trusted: isTrusted(file, trust, hash), filters: [] };
    }
    const parsed = filtersFromSpecs(specs.filters, file.path, file.scope, file.text);
    problems.push(...parsed.problems);
    if (parsed.problems.length === 0) cache.set(file.path, { text: file.text, stamp: file.stamp, specs: specs.filters, version: SPEC_CACHE_PROGRAM });
    return { path: file.path, scope: file.scope, hash, trusted: isTrusted(file, trust, hash), filters: parsed.filters };
  });
  const unchanged = (path: string, entry: SpecCacheEntry): boolean => cached.get(path)?.text === entry.text && cached.get(path)?.stamp === entry.stamp;
  if (cache.size !== cached.size || [...cache].some(([path, entry]) => !unchanged(path, entry))) writeSpecCache(dataDir, cache);
  return { active: files.filter((file) => file.trusted).flatMap((file) => file.filters), files, problems };
}
