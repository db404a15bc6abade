/**
 * The filter files that may run for a process in `cwd`, on the hook path: nothing is read when neither filter folder
 * exists (two existsSync calls, the common case). A person's own unchanged file becomes filters from the spec cache
 * after one lstat, unread; a project's file is read to check the hash it was trusted at. So neither the TOML parser,
 * zod's validation nor (for a person's own files) node:crypto loads, and a filter's stages compile on first use.
 * Problems are not reported here: a bad file never breaks a hook; `syt doctor` and `tokenless filters list` report
 * them.
 */
import type { FileFilter } from './filter.ts';
import { anyFilterDir, filterDirs } from './locate.ts';

export async function activeFileFilters(env: Readonly<Record<string, string | undefined>>, cwd: string, dataDir: string): Promise<readonly FileFilter[]> {
  const dirs = filterDirs(env, cwd);
  if (!anyFilterDir(dirs)) return [];
  // Loaded only once a folder exists: their start-up is a few ms of every hook call otherwise (measured with
  // --cpu-prof on an unminified build).
  const [{ filtersFromSpecs }, { fileStamp, isTrusted, listFilterFiles, readFilterFile }, { readSpecCache }] = await Promise.all([
    import('./build.ts'),
    import('./files.ts'),
    import('./spec-cache.ts'),
  ]);
  try {
    const cache = readSpecCache(dataDir);
    let trust: ReadonlyMap<string, string> | null = null;
    const filters: FileFilter[] = [];
    for (const { path, scope } of listFilterFiles(dirs)) {
      const entry = cache.get(path);
      let fresh = false;
      if (scope === 'user') {
        fresh = entry !== undefined && entry.stamp !== null && entry.stamp === fileStamp(path);
      } else {
        const text = readFilterFile(path);
        if (text === null) continue;
        trust ??= (await import('./trust.ts')).readTrust(dataDir);
        if (!isTrusted({ scope, path, text }, trust)) continue;
        fresh = entry?.text === text;
      }
      if (!fresh || entry === undefined) return (await import('./load.ts')).loadFilterSet(dirs, dataDir).active;
      filters.push(...filtersFromSpecs(entry.specs, path, scope, entry.text, { validated: true }).filters);
    }
    return filters;
  } catch {
    return [];
  }
}
