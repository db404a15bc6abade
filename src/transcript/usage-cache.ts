/**
 * Incremental usage index: each transcript's collapsed requests are cached in the data dir under its path, size and
 * mtime, so a second `stats usage` over unchanged files reads no transcript at all (ccusage re-parsed everything on
 * every run, which is what made it slow). A damaged cache is ignored and rebuilt, never fatal.
 */
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { readBoundedText } from '../io/bounded-read.ts';
import { ensurePrivateDir } from '../store/data-dir.ts';
import { mergeRequests, readUsage, type RequestUsage } from './claude-code.ts';

export const USAGE_CACHE_FILE = 'usage-cache.json';
const CACHE_VERSION = 1;

const CachedRequest = z.object({
  key: z.string(),
  requestId: z.nullable(z.string()),
  messageId: z.nullable(z.string()),
  session: z.string(),
  model: z.string(),
  timestamp: z.string(),
  input: z.number(),
  cacheRead: z.number(),
  cacheWrite5m: z.number(),
  cacheWrite1h: z.number(),
  output: z.number(),
  sidechain: z.boolean(),
});
const CacheEntry = z.object({ size: z.number(), mtimeMs: z.number(), requests: z.array(CachedRequest) });
const CacheFile = z.object({ version: z.literal(CACHE_VERSION), files: z.record(z.string(), CacheEntry) });
type CacheEntry = z.infer<typeof CacheEntry>;

export interface LoadedUsage {
  readonly requests: RequestUsage[];
  readonly files: number;
  /** Files read and parsed in this run. */
  readonly parsed: number;
  /** Files answered from the cache. */
  readonly cached: number;
}

/** Usage of the given transcript files, parsing only those whose size or mtime changed since the last run. */
export function loadUsage(files: readonly string[], dataDir: string, onProgress?: (done: number, total: number) => void): LoadedUsage {
  const cachePath = join(dataDir, USAGE_CACHE_FILE);
  const cache = readCache(cachePath);
  const perFile: RequestUsage[][] = [];
  let parsed = 0;
  let cached = 0;
  let dirty = false;
  for (const [index, file] of files.entries()) {
    onProgress?.(index + 1, files.length);
    let stat;
    try {
      stat = statSync(file);
    } catch {
      continue;
    }
    const hit = cache[file];
    if (hit !== undefined && hit.size === stat.size && hit.mtimeMs === stat.mtimeMs) {
      perFile.push(hit.requests);
      cached += 1;
      continue;
    }
    // Regular files only, within the bound: a FIFO or a link to a device is passed over, not waited on.
    const read = readBoundedText(file);
    if (!read.ok) continue;
    const requests = readUsage(read.text);
    cache[file] = { size: stat.size, mtimeMs: stat.mtimeMs, requests };
    perFile.push(requests);
    parsed += 1;
    dirty = true;
  }
  if (dirty) writeCache(dataDir, cachePath, cache);
  return { requests: mergeRequests(perFile), files: parsed + cached, parsed, cached };
}

function readCache(path: string): Record<string, CacheEntry> {
  try {
    const parsed = CacheFile.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? { ...parsed.data.files } : {};
  } catch {
    return {};
  }
}

function writeCache(dataDir: string, path: string, files: Record<string, CacheEntry>): void {
  try {
    ensurePrivateDir(dataDir);
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ version: CACHE_VERSION, files }), { mode: 0o600 });
    // Rename is atomic: a concurrent reader sees the old cache or the new one, never half of one.
    renameSync(tmp, path);
  } catch {
    // A cache we cannot write only costs a re-parse next time.
  }
}
