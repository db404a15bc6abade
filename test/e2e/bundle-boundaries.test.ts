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

describe('hot-path bundle boundaries (esbuild metafile)', () => {
  const meta = Metafile.parse(JSON.parse(readFileSync(join(ROOT, 'dist', 'meta.json'), 'utf8')));
  const outputFor = (entry: string): string => {
    const found = Object.entries(meta.outputs).find(([, output]) => output.entryPoint === entry);
    if (found === undefined) throw new Error(`no output chunk for ${entry}`);
    return found[0];
  };
  const cliOutput = outputFor('commands/main.ts');

  it.each([['hooks/hook.ts'], ['commands/run.ts']])('%s and the entry load neither Ink, React, tokenizer ranks, execa, commander nor classic zod', (entry) => {
    const closure = [...staticClosure(meta.outputs, [cliOutput, outputFor(entry)])];
    for (const pattern of FORBIDDEN) expect(closure.filter((input) => pattern.test(input)), String(pattern)).toEqual([]);
  });

  it('the entry chunk itself imports no command body statically', () => {
    const entry = meta.outputs[cliOutput];
    const closure = [...staticClosure(meta.outputs, [cliOutput])];
    expect(entry?.imports.some((imported) => imported.kind === 'dynamic-import')).toBe(true);
    expect(closure.filter((input) => input.includes('node_modules'))).toEqual([]);
  });

  it('the demo does reach Ink, so the test would notice if the boundary broke', () => {
    const closure = [...staticClosure(meta.outputs, [outputFor('commands/ui/SavingsTable.tsx')])];
    expect(closure.some((input) => /node_modules\/ink\//.test(input))).toBe(true);
  });
});
