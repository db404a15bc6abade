import type { CommandFilter } from '../types.ts';
import { findFilter, treeFilter } from './find.ts';
import { lsFilter } from './ls.ts';
import { duFilter, wcFilter } from './misc.ts';

export const FS_FILTERS: readonly CommandFilter[] = [lsFilter, findFilter, treeFilter, duFilter, wcFilter];
