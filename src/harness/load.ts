/**
 * The heavy part of a harness, by name: `src/harness/<name>/harness.ts` exports it as `harness`. Kept out of the
 * registry so that what only needs the cheap part (the session variables `run` reads) does not bundle every
 * harness's answers; the glob import below is what puts them into the hook's bundle.
 */
import type { Harness } from './types.ts';

export async function loadHarness(entry: { readonly name: string }): Promise<Harness> {
  const module = (await import(`./${entry.name}/harness.ts`)) as { harness: Harness };
  return module.harness;
}
