import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/root.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const run = promisify(execFile);
const tempDir = useTempDirs();

describe('stores under concurrent processes', () => {
  it('loses no row and never fails with SQLITE_BUSY: 8 processes x 200 stash entries and stats rows', async () => {
    const outDir = join(ROOT, '.tmp');
    mkdirSync(outDir, { recursive: true });
    const worker = join(outDir, `concurrency-worker-${process.pid}.mjs`);
    await build({
      entryPoints: [join(ROOT, 'test/helpers/concurrency-worker.ts')],
      outfile: worker,
      bundle: true,
      platform: 'node',
      format: 'esm',
      external: ['better-sqlite3'],
      logLevel: 'error',
    });
    const dataDir = tempDir();
    const workers = Array.from({ length: 8 }, (_, id) => run(process.execPath, [worker, dataDir, String(id), '200']));
    const results = await Promise.all(workers);
    for (const { stdout } of results) expect(JSON.parse(stdout)).toEqual({ failures: 0, statsFailure: null });

    const stash = new Database(join(dataDir, 'stash.db'), { readonly: true });
    const stats = new Database(join(dataDir, 'stats.db'), { readonly: true });
    expect(stash.prepare('SELECT COUNT(*) AS n FROM stash').get()).toEqual({ n: 1600 });
    expect(stash.prepare('SELECT COUNT(*) AS n FROM shown_markers').get()).toEqual({ n: 1600 });
    expect(stats.prepare('SELECT COUNT(*) AS n FROM operations').get()).toEqual({ n: 1600 });
    expect(stats.prepare('SELECT COUNT(DISTINCT session_id || tool_use_id) AS n FROM operations').get()).toEqual({ n: 1600 });
    stash.close();
    stats.close();
  });
});
