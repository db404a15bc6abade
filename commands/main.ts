/**
 * The one entry for `syt` and `tokenless`, bundled as CommonJS: an ES module entry alone costs Node 20 several
 * milliseconds of loader start-up on every hook call. The hot paths (`hook`, `run`, `--version`) are dispatched
 * before commander or any command body loads, from single-file CommonJS bundles compiled through V8's code cache;
 * everything else goes through the full program (ES modules, code-split), loaded on demand.
 */
import { join } from 'node:path';
import type * as HookModule from '../hooks/hook.ts';
import { BUNDLED_DRIVER } from '../src/store/sqlite-driver.ts';
import type * as SqliteModule from '../src/store/sqlite-driver-bundled.ts';
import { loadWrappedBundle } from './shared/load-cached.ts';
import type * as RunModule from './run.ts';

declare const __VERSION__: string;

/** A hot-path bundle next to this file (dist/hook.cjs, dist/run.cjs); `variant` keys its code cache. */
function hot<T>(file: string, variant = ''): T {
  return loadWrappedBundle(join(__dirname, file), variant) as T;
}

/**
 * The hot paths' database driver (src/store/sqlite-driver.ts): dist/sqlite.cjs, code-cached. Not for the full program:
 * its commands run long, or once (`syt analyze` must leave the data dir untouched), and load the package as installed.
 */
function useBundledDriver(): void {
  (globalThis as Record<symbol, unknown>)[BUNDLED_DRIVER] = () => hot<typeof SqliteModule>('sqlite.cjs').bundledDriver();
}

async function main(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case '--version':
    case '-V':
      process.stdout.write(`${__VERSION__}\n`);
      return;
    case 'hook':
      if (rest.includes('--help') || rest.includes('-h')) break;
      useBundledDriver();
      await hot<typeof HookModule>('hook.cjs', rest[0] ?? '').hookCommand(rest);
      return;
    case 'run':
      useBundledDriver();
      await hot<typeof RunModule>('run.cjs').runCommand(rest);
      return;
  }
  await (await import('./program.ts')).runProgram(argv, __VERSION__);
}

// A reader that stops early (`| head`) is not an error of ours: stop writing quietly. Not for `hook`: it writes to
// its file descriptors (hooks/stdio.ts), and creating the two streams alone costs it several milliseconds.
if (process.argv[2] !== 'hook') {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`tokenless: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
