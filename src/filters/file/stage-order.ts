import type { Stages } from './schema.ts';

/** The order stages run in, for the README's reference table and the pipeline alike. */
export const STAGE_ORDER = [
  'strip_ansi',
  'replace',
  'section',
  'skip',
  'keep',
  'collapse',
  'group',
  'truncate_lines_at',
  'head_lines',
  'tail_lines',
  'on_empty',
] as const satisfies readonly (keyof Stages)[];
