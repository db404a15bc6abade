/**
 * The filter files that may run for a process in `cwd`: nothing is read or loaded (not even the TOML parser) when
 * neither filter folder exists, which is the common case on the hook path. Problems are not reported here: a bad
 * file never breaks a hook; `syt doctor` and `tokenless filters list` report them.
 */
import type { FileFilter } from './filter.ts';
import { anyFilterDir, filterDirs } from './locate.ts';

export async function activeFileFilters(env: Readonly<Record<string, string | undefined>>, cwd: string, dataDir: string): Promise<readonly FileFilter[]> {
  const dirs = filterDirs(env, cwd);
  if (!anyFilterDir(dirs)) return [];
  try {
    return (await import('./load.ts')).loadFilterSet(dirs, dataDir).active;
  } catch {
    return [];
  }
}
