// Builds dist/bin/tokenless-<platform>-<arch>: a Node single executable application (SEA) whose main script is the
// small launcher in sea/, with the ESM bundle from scripts/build.mjs and better-sqlite3 (driver + native addon)
// embedded as assets under a checksum manifest. Run after `node scripts/build.mjs` (`npm run build:binary` does both).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const dist = join(root, 'dist');
// Staged outside dist/: `npm run build` empties dist/, and a build running meanwhile must not mix two bundles.
const work = join(root, '.tmp', 'sea');
const binDir = join(dist, 'bin');
const binaryName = `tokenless-${process.platform}-${process.arch}`;
// The sentinel Node's SEA support looks for (fixed by Node, documented with `postject`).
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

if (!existsSync(join(dist, 'cli.cjs'))) throw new Error('dist/cli.cjs is missing: run `node scripts/build.mjs` first');
rmSync(work, { recursive: true, force: true });
mkdirSync(join(work, 'sqlite'), { recursive: true });

// better-sqlite3's JavaScript as one CommonJS file: the binary has no node_modules. The addon stays a separate file
// because native code can only be loaded from disk.
await build({
  entryPoints: [require.resolve('better-sqlite3')],
  outfile: join(work, 'sqlite', 'better-sqlite3.cjs'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  logLevel: 'warning',
});
const addon = join(dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
copyFileSync(addon, join(work, 'sqlite', 'better_sqlite3.node'));
// The launcher loads this with a real require(): import() from there works, while from a SEA main script built with
// the code cache it fails on Node 20 (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING).
writeFileSync(join(work, 'boot.cjs'), "'use strict';\nexports.boot = (path) => import(require('node:url').pathToFileURL(path).href);\n");
// The extracted .js files are ES modules; without this Node would read them as CommonJS.
writeFileSync(join(work, 'package.json'), '{"type":"module"}\n');

await build({
  entryPoints: [join(root, 'sea', 'launch.mjs')],
  outfile: join(work, 'launch.cjs'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  logLevel: 'warning',
});

// Asset key = path inside the extraction directory; every asset is copied into the staging directory first.
mkdirSync(join(work, 'chunks'));
const bundle = ['cli.cjs', 'hook.cjs', 'run.cjs', 'program.js', ...readdirSync(join(dist, 'chunks')).map((name) => `chunks/${name}`)];
for (const file of bundle) copyFileSync(join(dist, file), join(work, file));
const assets = {};
for (const file of [...bundle, 'boot.cjs', 'package.json', 'sqlite/better-sqlite3.cjs', 'sqlite/better_sqlite3.node']) assets[file] = join(work, file);

const files = {};
for (const [key, path] of Object.entries(assets).sort(([a], [b]) => a.localeCompare(b))) {
  const bytes = readFileSync(path);
  files[key] = { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
}
// The build id names the extraction directory, so two builds of one version never share (or fight over) it.
const id = createHash('sha256').update(JSON.stringify(files)).digest('hex').slice(0, 12);
writeFileSync(join(work, 'manifest.json'), JSON.stringify({ version: pkg.version, id, files }));

const seaConfig = {
  main: join(work, 'launch.cjs'),
  output: join(work, 'sea-prep.blob'),
  disableExperimentalSEAWarning: true,
  // The code cache covers only the launcher; a start-up snapshot was measured not to help (BENCHMARKS.md).
  useCodeCache: true,
  useSnapshot: false,
  assets: { 'manifest.json': join(work, 'manifest.json'), ...assets },
};
writeFileSync(join(work, 'sea-config.json'), JSON.stringify(seaConfig, null, 2));
execFileSync(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')], { stdio: 'inherit' });

const staged = join(work, binaryName);
copyFileSync(process.execPath, staged);
chmodSync(staged, 0o755);
if (process.platform === 'darwin') execFileSync('codesign', ['--remove-signature', staged]);
const { inject } = require('postject');
await inject(staged, 'NODE_SEA_BLOB', readFileSync(seaConfig.output), {
  sentinelFuse: SEA_FUSE,
  ...(process.platform === 'darwin' ? { machoSegmentName: 'NODE_SEA' } : {}),
});
if (process.platform === 'darwin') execFileSync('codesign', ['--sign', '-', staged]);

const binary = join(binDir, binaryName);
rmSync(binDir, { recursive: true, force: true });
mkdirSync(binDir, { recursive: true });
copyFileSync(staged, binary);
rmSync(staged); // 100 MB each: keep one copy
// Both names next to the binary, as a person would install them.
for (const name of ['syt', 'tokenless']) symlinkSync(binaryName, join(binDir, name));

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
console.log(`${relative(root, binary)}: ${mib(statSync(binary).size)}, ${Object.keys(files).length} assets, build ${id}`);
