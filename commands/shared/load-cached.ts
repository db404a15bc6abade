/**
 * Loads a hot CommonJS bundle through V8's code cache. Node 20 has no `module.enableCompileCache()`, and compiling
 * the hook bundle is the largest single cost of a hook call; with a cache, V8 deserialises the compiled functions
 * instead. The cache lives in the private data dir (0700), keyed by the bundle's size, mtime and the Node version; V8
 * itself rejects data that does not match the source, and then the bundle compiles as usual. The bundle is stored
 * already wrapped in Node's module function (scripts/build.mjs), so its text is compiled as read, never copied.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

type ModuleFunction = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;

/**
 * `variant` names what the process will run (the hook's lifecycle): V8's cache holds the functions the first process
 * compiled, so one shared cache written by a pre_tool call left every post_tool call compiling its own functions
 * again (about 4 ms of each, measured in process). Each variant gets its own cache file.
 */
export function loadWrappedBundle(file: string, variant = ''): unknown {
  const source = readFileSync(file, 'utf8');
  const cachePath = codeCachePath(file, /^[a-z_]{1,20}$/.test(variant) ? variant : '');
  let cachedData: Buffer | undefined;
  try {
    cachedData = cachePath === null ? undefined : readFileSync(cachePath);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(source, { filename: file, ...(cachedData === undefined ? {} : { cachedData }) });
  const run = script.runInThisContext() as ModuleFunction;
  const module = { exports: {} as unknown };
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  if (cachePath !== null && (cachedData === undefined || script.cachedDataRejected === true)) {
    // Written once the command is done, so the functions it ran are in the cache too.
    process.once('beforeExit', () => writeCache(cachePath, script, basename(file)));
  }
  return module.exports;
}

function codeCachePath(file: string, variant: string): string | null {
  try {
    const stat = statSync(file);
    const configured = process.env['TOKENLESS_DATA_DIR'];
    const dataDir = configured !== undefined && configured !== '' ? configured : join(homedir(), '.tokenless');
    const name = variant === '' ? basename(file) : `${basename(file)}.${variant}`;
    return join(dataDir, 'code-cache', `${name}${buildKey(stat.size, stat.mtimeMs)}`);
  } catch {
    return null;
  }
}

/** What tells one build (and Node) of a bundle from another: the end of every cache file's name. */
function buildKey(size: number, mtimeMs: number): string {
  return `-${size}-${Math.trunc(mtimeMs)}-${process.version}.v8`;
}

function writeCache(path: string, script: Script, bundle: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
    renameSync(temporary, path);
  } catch {
    // No cache is only slower: never an error of the command.
  }
  pruneStale(path, bundle);
}

/** A week: long enough that two installs sharing the data dir (global and npx, say) do not evict each other's cache. */
const STALE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Each build and Node version gets its own cache files (each about as large as the bundle), so without pruning the
 * directory grows with every upgrade. Only the files of the same bundle are looked at, only when a new cache is
 * written, and never those of the current build (another variant's cache, written once, stays as long as the build).
 */
export function pruneStale(current: string, bundle: string, now = Date.now()): void {
  const dir = dirname(current);
  const keyOf = (name: string): string => name.slice(name.indexOf('-'));
  const currentKey = keyOf(basename(current));
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    const ours = name.startsWith(`${bundle}-`) || name.startsWith(`${bundle}.`);
    if (path === current || !ours || !name.endsWith('.v8') || keyOf(name) === currentKey) continue;
    try {
      if (now - statSync(path).mtimeMs > STALE_MS) unlinkSync(path);
    } catch {
      // Removed by another process first, or not ours to remove: leave it.
    }
  }
}
