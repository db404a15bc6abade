/** What every harness's doctor asks of a registered hook command: do the programs it names still exist? */
import { accessSync, constants } from 'node:fs';

/** The first absolute path in a hook command (shell-quoted or bare) that cannot be read (a moved checkout). */
export function missingPath(command: string): string | undefined {
  const paths = [...command.matchAll(/'([^']+)'|(\/\S+)/g)].map((match) => match[1] ?? match[2] ?? '').filter((path) => path.startsWith('/'));
  return paths.find((path) => !readable(path));
}

function readable(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}
