/**
 * The doctor's line about filter files, for every harness: how many run, which wait for trust, and each problem with
 * file and line (a bad file never breaks a hook; this is where a person hears of it).
 */
import type { DoctorCheck } from '../../harness/types.ts';
import type { FilterSet } from './files.ts';

export function filterFilesCheck(set: FilterSet): DoctorCheck {
  const waiting = set.files.filter((file) => !file.trusted);
  if (set.problems.length > 0) {
    const problems = set.problems.map((problem) => `${problem.path}${problem.line === null ? '' : `:${problem.line}`}: ${problem.message}`);
    return { name: 'filter-files', status: 'warn', detail: `${problems.join('; ')} (these files do not run; check them with \`tokenless filters test\`)` };
  }
  if (set.files.length === 0) return { name: 'filter-files', status: 'ok', detail: 'none (write one: see "Filter files" in the README)' };
  const running = `${set.active.length} filter(s) from ${set.files.length - waiting.length} file(s) run`;
  if (waiting.length === 0) return { name: 'filter-files', status: 'ok', detail: running };
  return { name: 'filter-files', status: 'warn', detail: `${running}; ${waiting.length} project file(s) wait for trust: read them, then \`tokenless filters trust\`` };
}
