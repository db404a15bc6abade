/**
 * The filter files that may run for a process in `cwd`, on the hook path: nothing is read when neither filter folder
 * exists (two existsSync calls, the common case); only the person's own files and trusted project files are turned
 * into filters, from the spec cache when their content is unchanged, so neither the TOML parser nor zod's
 * validation loads. Problems are not reported here: a bad file never breaks a hook; `syt doctor` and `tokenless
 * filters list` report them.
 */
import type { FileFilter } from './filter.ts';
import { anyFilterDir, filterDirs } from './locate.ts';

export async function activeFileFilters(env: Readonly<Record<string, string | undefined>>, cwd: string, dataDir: string): Promise<readonly FileFilter[]> {
  const dirs = filterDirs(env, cwd);
  if (!anyFilterDir(dirs)) return [];
  // Loaded only once a folder exists: their start-up (zod schemas) is a few ms of every hook call otherwise
  // (measured with --cpu-prof on an unminified build); node:crypto loads only to hash a project's files.
  const [{ filtersFromSpecs }, { isTrusted, readFilterFiles }, { cachedSpecs, readSpecCache }, { readTrust }] = await Promise.all([
    import('./build.ts'),
    import('./files.ts'),
    import('./spec-cache.ts'),
    import('./trust.ts'),
  ]);
  try {
    const files = readFilterFiles(dirs).files;
    // The trust store (and a hash per file) is read only for project files: a person's own files always run.
    const trust = files.some((file) => file.scope === 'project') ? readTrust(dataDir) : new Map<string, string>();
    const runnable = files.filter((file) => isTrusted(file, trust));
    if (runnable.length === 0) return [];
    const cache = readSpecCache(dataDir);
    const filters: FileFilter[] = [];
    for (const file of runnable) {
      const specs = cachedSpecs(cache, file);
      if (specs === undefined) return (await import('./load.ts')).loadFilterSet(dirs, dataDir).active;
      filters.push(...filtersFromSpecs(specs, file.path, file.scope, file.text).filters);
    }
    return filters;
  } catch {
    return [];
  }
}
