import { BUILD_FILTERS } from './build/index.ts';
import { containerFilter } from './container/index.ts';
import { FS_FILTERS } from './fs/index.ts';
import { GIT_FILTERS } from './git/index.ts';
import { jsonFilter } from './json/index.ts';
import { pkgFilter } from './pkg/index.ts';
import { readFilter } from './read/index.ts';
import { searchFilter } from './search/index.ts';
import { TEST_FILTERS } from './test/index.ts';
import { asCommandFilter, type FileFilter } from './file/filter.ts';
import type { CommandFilter } from './types.ts';

export { genericFilter } from './generic.ts';

/** A filter whose apply never throws: odd input yields null (the raw output is shown), never a crash. */
function safe(filter: CommandFilter): CommandFilter {
  return {
    name: filter.name,
    matches(argv) {
      try {
        return filter.matches(argv);
      } catch {
        return false;
      }
    },
    apply(output, context) {
      try {
        return filter.apply(output, context);
      } catch {
        return null;
      }
    },
  };
}

/** Every command filter, most specific first: the search filter precedes git's because `git grep` is a search, and
 * the test runners precede the build/script filters, which fall back to sniffing a script's output. */
export const FILTERS: readonly CommandFilter[] = [
  searchFilter,
  ...GIT_FILTERS,
  ...TEST_FILTERS,
  ...BUILD_FILTERS,
  ...FS_FILTERS,
  readFilter,
  pkgFilter,
  containerFilter,
  jsonFilter,
].map(safe);

/** The filter for a command as typed (`['git','status']`, `['npx','vitest','run']`), or null when none applies.
 * Filter files with priority `before` are asked first (a project's view of its own command wins), then the
 * built-ins, then filter files with priority `after`. */
export function findFilter(argv: readonly string[], fileFilters: readonly FileFilter[] = []): CommandFilter | null {
  const fromFile = (priority: FileFilter['priority']): CommandFilter | null => {
    const found = fileFilters.find((filter) => filter.priority === priority && filter.commands.length > 0 && asCommandFilter(filter).matches(argv));
    return found === undefined ? null : safe(asCommandFilter(found));
  };
  return fromFile('before') ?? FILTERS.find((filter) => filter.matches(argv)) ?? fromFile('after');
}
