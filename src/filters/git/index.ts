import type { CommandFilter } from '../types.ts';
import { gitDiffFilter } from './diff.ts';
import { gitLogFilter, gitShowFilter } from './log.ts';
import { gitBlameFilter, gitBranchFilter, gitShortlogFilter, gitStashFilter, gitWriteFilter } from './misc.ts';
import { gitStatusFilter } from './status.ts';

export const GIT_FILTERS: readonly CommandFilter[] = [
  gitStatusFilter,
  gitDiffFilter,
  gitLogFilter,
  gitShowFilter,
  gitBranchFilter,
  gitStashFilter,
  gitShortlogFilter,
  gitBlameFilter,
  gitWriteFilter,
];
