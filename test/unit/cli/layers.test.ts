/**
 * The layering of docs/architecture.md, checked with dependency-cruiser's JS API (its CLI needs Node 22) against the
 * rules in dependency-cruiser.config.js: the real tree breaks none, and a tiny tree that breaks each one once fails
 * each rule by name, so a rule that could never fire would fail here too.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/root.ts';

const config = ((await import(pathToFileURL(join(ROOT, 'dependency-cruiser.config.js')).href)) as { default: IConfiguration }).default;
const RULES = (config.forbidden ?? []).map((rule) => rule.name);

async function violations(baseDir: string): Promise<string[]> {
  const result = await cruise(['src', 'hooks', 'commands'], { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden ?? [] }, baseDir });
  const output = result.output as ICruiseResult;
  return output.summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}`).sort();
}

const scratch = mkdtempSync(join(tmpdir(), 'tokenless-layers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** One file per entry; each import line names its target relative to the file. */
function tree(files: Record<string, string[]>): string {
  for (const [path, imports] of Object.entries(files)) {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    writeFileSync(join(scratch, path), `${imports.join('\n')}\nexport const value = 1;\n`);
  }
  return scratch;
}

describe('layers (dependency-cruiser.config.js)', () => {
  it('names the six rules of docs/architecture.md, and the document names each', () => {
    expect(RULES).toEqual(['engine-knows-no-entry-point', 'no-reducer-knows-an-agent', 'storage-knows-nothing-above-it', 'contracts-know-no-storage', 'hook-path-never-loads-ink', 'no-circles']);
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    for (const name of RULES) expect(doc).toContain(name);
  });

  it('the source tree breaks no rule', async () => {
    expect(await violations(ROOT)).toEqual([]);
  }, 20_000);

  it('a tree that breaks each rule once fails each by name', async () => {
    const dir = tree({
      'src/protocol/schemas.ts': ["import { value } from '../store/stash.ts';"],
      'src/store/stash.ts': ["import { value } from '../harness/registry.ts';"],
      'src/filters/git.ts': ["import { value } from '../harness/registry.ts';"],
      'src/harness/registry.ts': ["import { value } from '../../commands/main.ts';"],
      'commands/main.ts': [],
      // Lazy, two steps away: reachable still counts.
      'hooks/hook.ts': ["const load = () => import('../src/runtime/post-tool.ts');"],
      'src/runtime/post-tool.ts': ["const view = () => import('../../commands/ui/View.tsx');"],
      'commands/ui/View.tsx': [],
      'src/runtime/a.ts': ["import { value } from './b.ts';"],
      'src/runtime/b.ts': ["import { value } from './a.ts';"],
    });
    const found = await violations(dir);
    expect(found).toEqual([
      'contracts-know-no-storage: src/protocol/schemas.ts -> src/store/stash.ts',
      'engine-knows-no-entry-point: src/harness/registry.ts -> commands/main.ts',
      'engine-knows-no-entry-point: src/runtime/post-tool.ts -> commands/ui/View.tsx',
      'hook-path-never-loads-ink: hooks/hook.ts -> commands/ui/View.tsx',
      'no-circles: src/runtime/a.ts -> src/runtime/b.ts',
      'no-reducer-knows-an-agent: src/filters/git.ts -> src/harness/registry.ts',
      'storage-knows-nothing-above-it: src/store/stash.ts -> src/harness/registry.ts',
    ]);
    expect(new Set(found.map((line) => line.split(':')[0]))).toEqual(new Set(RULES));
  }, 20_000);
});
