import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/root.ts';

const Metafile = z.object({
  outputs: z.record(
    z.string(),
    z.object({
      imports: z.array(z.object({ path: z.string(), kind: z.string() })),
      inputs: z.record(z.string(), z.unknown()),
      entryPoint: z.optional(z.string()),
    }),
  ),
});
type Outputs = z.infer<typeof Metafile>['outputs'];

/** Every input module that loads, statically, once the output chunk for `entry` is imported. */
function staticClosure(outputs: Outputs, startOutputs: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const inputs = new Set<string>();
  const queue = [...startOutputs];
  while (queue.length > 0) {
    const path = queue.pop() ?? '';
    if (seen.has(path)) continue;
    seen.add(path);
    const output = outputs[path];
    if (output === undefined) continue;
    for (const input of Object.keys(output.inputs)) inputs.add(input);
    for (const imported of output.imports) if (imported.kind === 'import-statement' && outputs[imported.path] !== undefined) queue.push(imported.path);
  }
  return inputs;
}

const FORBIDDEN = [/node_modules\/ink\//, /node_modules\/react\//, /node_modules\/react-reconciler\//, /js-tiktoken\/dist\/ranks/, /node_modules\/execa\//, /node_modules\/commander\//, /node_modules\/zod\/v4\/classic\//];

describe('hot-path bundle boundaries (esbuild metafiles)', () => {
  const program = Metafile.parse(JSON.parse(readFileSync(join(ROOT, 'dist', 'meta.json'), 'utf8')));
  const hot = Metafile.parse(JSON.parse(readFileSync(join(ROOT, 'dist', 'meta-hot.json'), 'utf8')));
  const outputFor = (outputs: Outputs, entry: string): string => {
    const found = Object.entries(outputs).find(([, output]) => output.entryPoint === entry);
    if (found === undefined) throw new Error(`no output for ${entry}`);
    return found[0];
  };

  it.each([['hooks/hook.ts'], ['commands/run.ts']])('%s loads neither Ink, React, tokenizer ranks, execa, commander nor classic zod', (entry) => {
    const closure = [...staticClosure(hot.outputs, [outputFor(hot.outputs, entry)])];
    expect(closure.length).toBeGreaterThan(10);
    for (const pattern of FORBIDDEN) expect(closure.filter((input) => pattern.test(input)), String(pattern)).toEqual([]);
  });

  it('the entry holds only itself, the code-cache loader and the driver hand-over, and reaches the program as a sibling file', () => {
    const entry = hot.outputs[outputFor(hot.outputs, 'commands/main.ts')];
    expect(Object.keys(entry?.inputs ?? {}).sort()).toEqual(['commands/main.ts', 'commands/shared/load-cached.ts', 'src/store/sqlite-driver.ts']);
    expect(entry?.imports.filter((imported) => !imported.path.startsWith('node:')).map((imported) => imported.path)).toEqual(['./program.js']);
  });

  it('the demo does reach Ink, so the test would notice if the boundary broke', () => {
    const closure = [...staticClosure(program.outputs, [outputFor(program.outputs, 'commands/ui/SavingsTable.tsx')])];
    expect(closure.some((input) => /node_modules\/ink\//.test(input))).toBe(true);
  });

  // esbuild escapes non-ASCII in strings but not in regex literals or String.raw templates; one such character makes V8
  // hold the whole bundle as a two-byte string, slower to read and to compile on every hook call (BENCHMARKS.md).
  it.each([['hook.cjs'], ['run.cjs']])('dist/%s is pure ASCII: write non-ASCII in regexes as \\uXXXX', (file) => {
    const text = readFileSync(join(ROOT, 'dist', file), 'latin1');
    const lines = text.split('\n').flatMap((line, i) => (/[^\x00-\x7f]/.test(line) ? [`line ${i + 1}: ${/.{0,30}[^\x00-\x7f]+.{0,10}/.exec(line)?.[0] ?? ''}`] : []));
    expect(lines).toEqual([]);
  });
});
