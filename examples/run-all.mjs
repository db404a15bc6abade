// Runs every example offline: each .ts example is bundled from the sources with esbuild (packages stay external, so
// `ai` and LangChain resolve from node_modules) into node_modules/.cache, then run with node. Exit code 1 if any fails.
// Usage: node examples/run-all.mjs [name...]
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const outdir = join(root, 'node_modules', '.cache', 'tokenless-examples');
const EXAMPLES = ['sdk-lifecycles', 'ai-sdk-agent', 'langchain-agent'];
const chosen = process.argv.slice(2).length > 0 ? process.argv.slice(2) : EXAMPLES;

mkdirSync(outdir, { recursive: true });
let failed = 0;
for (const name of chosen) {
  if (!EXAMPLES.includes(name)) {
    process.stderr.write(`unknown example ${name} (one of ${EXAMPLES.join(', ')})\n`);
    process.exitCode = 2;
    continue;
  }
  const outfile = join(outdir, `${name}.mjs`);
  await build({ entryPoints: [join(here, `${name}.ts`)], outfile, bundle: true, platform: 'node', target: 'node20', format: 'esm', packages: 'external', logLevel: 'warning' });
  process.stdout.write(`\n== examples/${name}.ts\n`);
  const run = spawnSync(process.execPath, [outfile], { stdio: 'inherit', cwd: root, env: { ...process.env, NO_COLOR: '1' } });
  if (run.status !== 0) {
    failed += 1;
    process.stderr.write(`examples/${name}.ts exited ${run.status ?? run.signal}\n`);
  }
}
if (failed > 0) process.exitCode = 1;
