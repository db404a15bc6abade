// Bundles the CLI (code-split: each command and the hook path in their own chunks) and the library entry.
import { build } from 'esbuild';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const dist = join(root, 'dist');

// Some bundled CommonJS dependencies call require() on Node builtins; ESM output needs a real require.
const requireShim = "import { createRequire as __tokenlessCreateRequire } from 'node:module'; const require = __tokenlessCreateRequire(import.meta.url);";

const shared = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: false,
  legalComments: 'none',
  minify: true,

  logLevel: 'warning',
  define: { __VERSION__: JSON.stringify(pkg.version), 'process.env.NODE_ENV': '"production"' },
  // The native addon is loaded from node_modules (or extracted next to a single binary), never bundled.
  external: ['better-sqlite3', 'react-devtools-core'],
  banner: { js: requireShim },
};

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

// The hot paths (`hook`, `run`) are single files: one ES module loads faster than the two dozen shared chunks code
// splitting would give them (measured in BENCHMARKS.md), and they never reach Ink, React or the tokenizer ranks.
const HOT_ENTRIES = { 'hooks/hook.ts': './hook.js', 'commands/run.ts': './run.js' };
const hotPathsExternal = {
  name: 'hot-paths-external',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /\/(hook|run)\.ts$/ }, (args) => {
      if (!args.importer.endsWith(join('commands', 'main.ts'))) return undefined;
      const target = Object.entries(HOT_ENTRIES).find(([source]) => join(args.resolveDir, args.path) === join(root, source));
      return target === undefined ? undefined : { path: target[1], external: true };
    });
  },
};

const cli = await build({
  ...shared,
  entryPoints: { cli: join(root, 'commands/main.ts') },
  outdir: dist,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  metafile: true,
  plugins: [hotPathsExternal],
});
writeFileSync(join(dist, 'meta.json'), JSON.stringify(cli.metafile));

const hot = await build({
  ...shared,
  entryPoints: { hook: join(root, 'hooks/hook.ts'), run: join(root, 'commands/run.ts') },
  outdir: dist,
  splitting: false,
  metafile: true,
});
writeFileSync(join(dist, 'meta-hot.json'), JSON.stringify(hot.metafile));
const cliPath = join(dist, 'cli.js');
writeFileSync(cliPath, `#!/usr/bin/env node\n${readFileSync(cliPath, 'utf8')}`);
chmodSync(cliPath, 0o755);

await build({
  ...shared,
  entryPoints: { index: join(root, 'src/index.ts') },
  outdir: join(dist, 'lib'),
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  packages: 'external',
});
