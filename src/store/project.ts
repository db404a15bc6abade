/**
 * The project a view is shown in, for per-project decisions (a view kind switched to lossless there): the directory
 * the harness names (CLAUDE_PROJECT_DIR), else the nearest enclosing git work tree, else the working directory.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export function projectOf(cwd: string, env: Readonly<Record<string, string | undefined>> = {}): string {
  const named = env['CLAUDE_PROJECT_DIR'];
  if (named !== undefined && named !== '') return resolve(named);
  let dir = resolve(cwd);
  for (;;) {
    if (existsSync(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return resolve(cwd);
    dir = parent;
  }
}
