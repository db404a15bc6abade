/**
 * The filter-file format (TOML), as zod sees it after parsing. One file holds one filter (its fields at the top
 * level, named after the file unless it says `name`) or several (`[filters.<name>]` tables). Field names follow the
 * two formats people already write: tokf's `command`, `skip`, `keep`, `[[replace]]`, `[on_success]`/`[on_failure]`
 * and RTK's `strip_ansi`, `head_lines`/`tail_lines`, `truncate_lines_at`, `on_empty`, so a filter moved from either
 * reads the same. Unknown keys are errors, not silently ignored: a typo must not make a filter do nothing.
 */
import * as z from 'zod/mini';

const pattern = z.string().check(z.minLength(1), z.maxLength(1000));
const patterns = z.array(pattern).check(z.maxLength(100));
const count = z.int().check(z.minimum(0), z.maximum(100_000));

/** The stages, each optional; they always run in the order `STAGE_ORDER` (stage-order.ts) gives, whatever order the file lists them. */
export const StagesSchema = z.strictObject({
  strip_ansi: z.optional(z.boolean()),
  replace: z.optional(z.array(z.strictObject({ pattern, output: z.string().check(z.maxLength(1000)) })).check(z.maxLength(100))),
  section: z.optional(z.strictObject({ start: pattern, end: z.optional(pattern) })),
  skip: z.optional(patterns),
  keep: z.optional(patterns),
  collapse: z.optional(
    z.array(z.strictObject({ pattern, label: z.optional(z.string().check(z.maxLength(200))), min: z.optional(count) })).check(z.maxLength(100)),
  ),
  group: z.optional(z.strictObject({ pattern, max_per_group: z.optional(count) })),
  truncate_lines_at: z.optional(z.int().check(z.minimum(8), z.maximum(100_000))),
  head_lines: z.optional(count),
  tail_lines: z.optional(count),
  on_empty: z.optional(z.string().check(z.maxLength(1000))),
});
export type Stages = z.infer<typeof StagesSchema>;


export const InlineTestSchema = z.strictObject({
  name: z.optional(z.string().check(z.maxLength(200))),
  input: z.string(),
  exit_code: z.optional(z.int()),
  expected: z.string(),
});
export type InlineTest = z.infer<typeof InlineTestSchema>;

const filterFields = {
  description: z.optional(z.string().check(z.maxLength(500))),
  /** Program-and-argument patterns, like allow rules: words compared one by one, `*` and `?` inside a word, a lone
   * final `*` for any further arguments; the program is compared by basename. */
  command: z.optional(z.union([pattern, patterns])),
  /** A regex over the first lines of the output: the filter applies to any command whose output matches it. */
  content: z.optional(pattern),
  /** Before the built-in filters (a project's own view of its own command wins) or after them (a fallback). */
  priority: z.optional(z.enum(['before', 'after'])),
  on_success: z.optional(StagesSchema),
  on_failure: z.optional(StagesSchema),
  test: z.optional(z.array(InlineTestSchema).check(z.maxLength(200))),
};

export const FilterSchema = z.strictObject({ name: z.optional(z.string().check(z.minLength(1), z.maxLength(100))), ...StagesSchema.shape, ...filterFields });
export type FilterSpec = z.infer<typeof FilterSchema>;

export const ManyFiltersSchema = z.strictObject({ filters: z.record(z.string().check(z.minLength(1), z.maxLength(100)), FilterSchema) });
