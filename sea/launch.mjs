// The single executable's main script (bundled to CommonJS by scripts/build-binary.mjs; SEA on Node 20 runs one CJS
// script). It extracts the embedded ESM bundle and the SQLite addon to a private per-user, per-build directory,
// verifies what it is about to load, then loads the extracted `cli.cjs`. Only the files a command loads are hashed:
// the hook path hashes ~240 KB, the addon is hashed only when a command opens the store.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { getAsset } from 'node:sea';

/** How sqlite.ts finds the driver inside the binary (there is no node_modules). */
const SEA_SQLITE = Symbol.for('tokenless.sea.sqlite');
/** Commands whose whole code is cli.cjs plus one single-file bundle: program.js and its chunks are neither loaded nor hashed. */
const HOT_COMMANDS = new Set(['hook', 'run', '--version', '-V']);
const NAMES = new Set(['syt', 'tokenless']);

class LaunchError extends Error {}

main().catch((error) => {
  process.stderr.write(`tokenless: ${error instanceof LaunchError ? error.message : (error?.stack ?? String(error))}\n`);
  process.exitCode = 1;
});

async function main() {
  const manifest = JSON.parse(getAsset('manifest.json', 'utf8'));
  selectName();
  const dir = prepare(manifest);
  const hot = HOT_COMMANDS.has(process.argv[2] ?? '');
  // Everything but the SQLite files, which sqliteDriver() verifies when a command opens the store.
  const toLoad = Object.keys(manifest.files).filter((file) => !file.startsWith('sqlite/') && !(hot && (file.startsWith('chunks/') || file === 'program.js')));
  verify(dir, manifest, toLoad);
  globalThis[SEA_SQLITE] = () => sqliteDriver(dir, manifest);
  // On Node 20, import() from a SEA main script built with the code cache fails (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING);
  // a file on disk loaded by a real require() has the normal loader, so its import() works.
  await createRequire(join(dir, 'boot.cjs'))(join(dir, 'boot.cjs')).boot(join(dir, 'cli.cjs'));
}

/** `syt`/`tokenless` by invoked name (symlink or copy) or as the first argument; program.ts reads argv[1]. */
function selectName() {
  const first = process.argv[2];
  if (first !== undefined && NAMES.has(first)) {
    process.argv.splice(2, 1);
    process.argv[1] = first;
  } else {
    process.argv[1] = basename(process.argv0).startsWith('syt') ? 'syt' : 'tokenless';
  }
}

/** The extraction directory, extracted afresh when missing or damaged; a foreign one is reported, never used. */
function prepare(manifest) {
  const base = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'tokenless');
  const dir = join(base, `sea-${manifest.version}-${process.platform}-${process.arch}-${manifest.id}`);
  const problem = dirProblem(dir);
  if (problem === null) return dir;
  if (problem !== 'missing') {
    if (tryLstat(dir)?.uid !== process.getuid()) throw new LaunchError(`${dir} is not yours (${problem}); remove it or set XDG_CACHE_HOME`);
    remove(dir, problem);
  }
  extract(base, dir, manifest);
  return dir;
}

/** null when the directory is ours and private; otherwise why not. Files are checked when they are about to load. */
function dirProblem(dir) {
  const stat = tryLstat(dir);
  if (stat === undefined) return 'missing';
  if (!stat.isDirectory()) return 'not a directory';
  if (stat.uid !== process.getuid()) return `owned by uid ${stat.uid}`;
  if ((stat.mode & 0o777) !== 0o700) return `mode ${(stat.mode & 0o777).toString(8)}, expected 700`;
  return null;
}

/** Writes every asset into a fresh private directory, then renames it into place (atomic against other launches). */
function extract(base, dir, manifest) {
  const staging = `${dir}.tmp-${process.pid}-${Date.now()}`;
  try {
    mkdirSync(base, { recursive: true, mode: 0o700 });
    mkdirSync(staging, { mode: 0o700 });
    for (const file of Object.keys(manifest.files)) {
      const bytes = Buffer.from(getAsset(file));
      if (sha256(bytes) !== manifest.files[file].sha256) throw new LaunchError(`the binary is damaged (asset ${file}); reinstall it`);
      mkdirSync(dirname(join(staging, file)), { recursive: true, mode: 0o700 });
      writeFileSync(join(staging, file), bytes, { mode: 0o400, flag: 'wx' });
    }
    renameSync(staging, dir);
  } catch (error) {
    try {
      rmSync(staging, { recursive: true, force: true });
    } catch {
      // Nothing was staged (the parent is not a directory or not writable); the error below says why.
    }
    if (error instanceof LaunchError) throw error;
    // Another launch may have won the rename race: its directory is used if private, and its files are verified.
    if (dirProblem(dir) !== null) throw new LaunchError(`cannot extract to ${dir}: ${error.message}`);
  }
}

/** Checks the files about to be loaded (owner, mode, size, SHA-256); damage means extracting once more. */
function verify(dir, manifest, files) {
  const bad = firstProblem(dir, manifest, files);
  if (bad === null) return;
  remove(dir, bad);
  extract(dirname(dir), dir, manifest);
  const still = firstProblem(dir, manifest, files);
  if (still !== null) throw new LaunchError(`${still}, even after extracting again; remove ${dir} and retry`);
}

function firstProblem(dir, manifest, files) {
  for (const file of files) {
    const path = join(dir, file);
    const { sha256: expected, size } = manifest.files[file];
    const stat = tryLstat(path);
    if (stat === undefined || !stat.isFile()) return `${path} is missing`;
    if (stat.uid !== process.getuid()) return `${path} is owned by uid ${stat.uid}`;
    if ((stat.mode & 0o022) !== 0) return `${path} is writable by others`;
    if (stat.size !== size || sha256(readFileSync(path)) !== expected) return `${path} fails its checksum`;
  }
  return null;
}

/** Removes a damaged extraction of ours; failing that, says what is wrong instead of loading from it. */
function remove(dir, problem) {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch (error) {
    throw new LaunchError(`${dir} is damaged (${problem}) and cannot be removed (${error.message}); remove it by hand`);
  }
}

/** Called by sqlite.ts on first use: verifies the driver and the addon, then hands both over. */
function sqliteDriver(dir, manifest) {
  const driver = join(dir, 'sqlite', 'better-sqlite3.cjs');
  const addon = join(dir, 'sqlite', 'better_sqlite3.node');
  verify(dir, manifest, ['sqlite/better-sqlite3.cjs', 'sqlite/better_sqlite3.node']);
  return { Database: createRequire(driver)(driver), nativeBinding: addon };
}

function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

function tryLstat(path) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
