// Builds dist/: the CommonJS entry (cli.cjs), the single-file CommonJS hot paths (hook.cjs, run.cjs, stored
// wrapped), the full program as code-split ES modules (program.js + chunks/), and the library (lib/). Metafiles:
// meta.json (program), meta-hot.json (entry and hot paths), read by test/e2e/bundle-boundaries.test.ts.
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const dist = join(root, 'dist');

const shared = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  legalComments: 'none',
  minify: true,
  logLevel: 'warning',
  define: { __VERSION__: JSON.stringify(pkg.version), 'process.env.NODE_ENV': '"production"' },
  // The native addon is loaded from node_modules (or extracted next to a single binary), never bundled.
  external: ['better-sqlite3', 'react-devtools-core'],
};

// Some bundled CommonJS dependencies call require() on Node builtins; ES module output needs a real require.
const esm = {
  ...shared,
  format: 'esm',
  banner: { js: "import { createRequire as __tokenlessCreateRequire } from 'node:module'; const require = __tokenlessCreateRequire(import.meta.url);" },
};

// CommonJS output has no import.meta: give the one use (createRequire in src/store/sqlite.ts) the file's URL.
const cjs = {
  ...shared,
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  define: { ...shared.define, 'import.meta.url': '__tokenlessImportMetaUrl' },
  banner: { js: "const __tokenlessImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
};

// The entry reaches the other bundles as sibling files, never by inlining them.
const SIBLINGS = { 'hooks/hook.ts': './hook.cjs', 'commands/run.ts': './run.cjs', 'commands/program.ts': './program.js' };
const siblingsExternal = {
  name: 'siblings-external',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /\/(hook|run|program)\.ts$/ }, (args) => {
      if (!args.importer.endsWith(join('commands', 'main.ts'))) return undefined;
      const target = Object.entries(SIBLINGS).find(([source]) => join(args.resolveDir, args.path) === join(root, source));
      return target === undefined ? undefined : { path: target[1], external: true };
    });
  },
};

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

const hot = await build({
  ...cjs,
  entryPoints: { cli: join(root, 'commands/main.ts'), hook: join(root, 'hooks/hook.ts'), run: join(root, 'commands/run.ts') },
  outdir: dist,
  metafile: true,
  plugins: [siblingsExternal],
});
writeFileSync(join(dist, 'meta-hot.json'), JSON.stringify(hot.metafile));
// better-sqlite3's JavaScript as one file with a code cache of its own (src/store/sqlite-driver-bundled.ts says why);
// its addon is loaded from the installed package by path, so `bindings` is never called.
await build({ ...cjs, entryPoints: { sqlite: join(root, 'src/store/sqlite-driver-bundled.ts') }, outdir: dist, external: ['bindings'] });
// The hot bundles are stored already wrapped as a CommonJS module function (Node's own wrapper), so loading them
// compiles the file's text as read: wrapping at run time would copy the whole bundle into a second string on every
// hook call (commands/shared/load-cached.ts).
for (const name of ['hook.cjs', 'run.cjs', 'sqlite.cjs']) writeFileSync(join(dist, name), Module.wrap(readFileSync(join(dist, name), 'utf8')));
const cliPath = join(dist, 'cli.cjs');
writeFileSync(cliPath, `#!/usr/bin/env node\n${readFileSync(cliPath, 'utf8')}`);
chmodSync(cliPath, 0o755);
// The launcher rewritten commands start `run` through (src/shell/wrapper-command.ts): plain sh, so it runs before Node does.
copyFileSync(join(root, 'commands/launch.sh'), join(dist, 'launch.sh'));

const program = await build({
  ...esm,
  entryPoints: { program: join(root, 'commands/program.ts') },
  outdir: dist,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  metafile: true,
});
writeFileSync(join(dist, 'meta.json'), JSON.stringify(program.metafile));

await build({
  ...esm,
  // The adapters are separate entries so the core library never loads `ai` or `@langchain/core`.
  entryPoints: {
    index: join(root, 'src/index.ts'),
    'ai-sdk': join(root, 'src/sdk/ai-sdk/index.ts'),
    langchain: join(root, 'src/sdk/langchain/index.ts'),
  },
  outdir: join(dist, 'lib'),
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  packages: 'external',
});

// Type declarations for library users (dist/types). The sources import with `.ts` extensions; declarations must name
// the `.js` files a consumer resolves, so the specifiers are rewritten after tsc.
execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.types.json')], { stdio: 'inherit' });
for (const entry of readdirSync(join(dist, 'types'), { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
  const path = join(entry.parentPath ?? entry.path, entry.name);
  const text = readFileSync(path, 'utf8');
  writeFileSync(path, text.replace(/((?:from|import)\s*\(?\s*')(\.{1,2}\/[^']+)\.tsx?'/g, "$1$2.js'"));
}
