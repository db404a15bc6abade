/**
 * The package as a TypeScript user sees it: `save-your-tokens` and its adapter entries resolve, with their shipped
 * declarations, from a separate project (strict, no skipLibCheck), and the library runs from dist/lib.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/root.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();

function consumer(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'save-your-tokens'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')] } }),
  );
  return dir;
}

describe('the published library', () => {
  it('type-checks a consumer against the shipped declarations', () => {
    const dir = consumer();
    writeFileSync(
      join(dir, 'index.ts'),
      `import { TokenlessSdk, PostToolRequest, estimateTokens, type PostToolResult } from 'save-your-tokens';
import { createTokenlessAiSdk } from 'save-your-tokens/ai-sdk';
const sdk = new TokenlessSdk({ dataDir: '/tmp/never-used' });
const tokens: number = estimateTokens('hello world');
const parsed = PostToolRequest.safeParse({});
const shape: PostToolResult['disposition'] = 'applied';
export { sdk, tokens, parsed, shape, createTokenlessAiSdk };
import { SkillLoader, SkillRegistry } from 'save-your-tokens';
const registry = new SkillRegistry().addScanDir('./skills');
registry.scan();
const loader = new SkillLoader({ contextWindow: 200_000, profile: 'agentic' });
const level: 'within' | 'warn' | 'compact' | 'reject' = loader.load('debugging', registry.get('debugging')?.body ?? '', 1_200);
const unloaded: boolean = loader.unload('debugging');
const used: number = loader.budgetSummary().layers.persistent.used;
export { level, unloaded, used };
// @ts-expect-error a disposition that does not exist must not type-check
const wrong: PostToolResult['disposition'] = 'maybe';
export { wrong };
`,
    );
    const result = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { encoding: 'utf8' });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 120_000);

  it('runs from dist/lib: a post_tool call through the SDK', () => {
    const dir = consumer();
    writeFileSync(
      join(dir, 'run.mjs'),
      `import { TokenlessSdk } from 'save-your-tokens';
const sdk = new TokenlessSdk({ dataDir: ${JSON.stringify(join(dir, 'data'))} });
const listing = Array.from({ length: 40 }, (_, i) => 'src/app/module/file.ts:' + (i + 1) + ':const value' + i + ' = compute(' + i + ');').join('\\n');
const result = await sdk.postTool({ attribution: { agent_id: 'a', session_id: 's', tool_use_id: 't' }, input: { tool_name: 'search', status: 'success', origin: 'api_response', content: listing } });
console.log(JSON.stringify({ disposition: result.disposition, operations: result.applied_operations }));
await sdk.close?.();
`,
    );
    const result = spawnSync(process.execPath, [join(dir, 'run.mjs')], { cwd: dir, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ disposition: 'applied', operations: ['search_path_sharing'] });
  });
});
