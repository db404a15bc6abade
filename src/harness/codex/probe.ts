/** The file reads behind decideApproval (approval.ts stays pure). */
import { existsSync, readdirSync } from 'node:fs';
import type { ApprovalProbe } from './approval.ts';
import { MANAGED_FILES, rulesDirectories } from './settings.ts';

export function probeApproval(permissionMode: string | undefined, cwd: string, env: Readonly<Record<string, string | undefined>>): ApprovalProbe {
  return {
    permissionMode,
    shell: env['SHELL'],
    nonEmptyRuleDirs: rulesDirectories(cwd, env).filter(nonEmpty),
    managedFiles: MANAGED_FILES.filter((file) => existsSync(file)),
  };
}

function nonEmpty(dir: string): boolean {
  try {
    return readdirSync(dir).length > 0;
  } catch (error) {
    // A directory we cannot read may hold rules all the same.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}
