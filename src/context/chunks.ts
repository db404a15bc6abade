/** CAL chunk files: one JSON document per chunk, validated at the boundary. */
import * as z from 'zod/mini';

export const ChunkSchema = z.object({
  id: z.string().check(z.minLength(1)),
  triggers: z._default(z.array(z.string()), []),
  summary: z._default(z.string(), ''),
  /** Zone 1: always included, first. */
  mandatory: z._default(z.boolean(), false),
  content: z._default(z.string(), ''),
  negative_triggers: z.optional(
    z.object({
      /** Without at least one of these in the query the chunk is never selected. */
      require_any: z._default(z.array(z.string()), []),
      /** Each one present lowers the score. */
      penalty: z._default(z.array(z.string()), []),
      /** Any one present excludes the chunk. */
      hard_exclude: z._default(z.array(z.string()), []),
    }),
  ),
});
export type Chunk = z.infer<typeof ChunkSchema>;
