import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/root.ts';

const require = createRequire(import.meta.url);
const installedManifest = require.resolve('better-sqlite3/package.json');
const installedVersion = (JSON.parse(readFileSync(installedManifest, 'utf8')) as { version: string }).version;

/** What dist/sqlite.cjs's bundledDriver() answers when loaded from `file`: the addon it named, or null. */
function driverFrom(file: string): { addon: string | null; opened: boolean } {
  const script = `
    const Module = require('node:module');
    const vm = require('node:vm');
    const file = ${JSON.stringify(file)};
    const fn = new vm.Script(require('node:fs').readFileSync(file, 'utf8'), { filename: file }).runInThisContext();
    const module = { exports: {} };
    fn.call(module.exports, module.exports, Module.createRequire(file), module, file, require('node:path').dirname(file));
    const driver = module.exports.bundledDriver();
    let opened = false;
    if (driver !== null) {
      const db = new driver.Database(':memory:', { nativeBinding: driver.nativeBinding });
      opened = db.prepare('select 1 + 1 as two').get().two === 2;
      db.close();
    }
    process.stdout.write(JSON.stringify({ addon: driver === null ? null : driver.nativeBinding, opened }));
  `;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as { addon: string | null; opened: boolean };
}

describe('dist/sqlite.cjs: the driver the CLI hands to the store', () => {
  it('drives the installed addon, named by path, when the installed better-sqlite3 is the bundled version', () => {
    const found = driverFrom(join(ROOT, 'dist', 'sqlite.cjs'));
    expect(found.addon).toBe(join(dirname(installedManifest), 'build', 'Release', 'better_sqlite3.node'));
    expect(found.opened).toBe(true);
  });

  it('answers null (the store then loads the installed package itself) when the installed version differs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlite-driver-'));
    mkdirSync(join(dir, 'dist'));
    mkdirSync(join(dir, 'node_modules', 'better-sqlite3', 'build', 'Release'), { recursive: true });
    copyFileSync(join(ROOT, 'dist', 'sqlite.cjs'), join(dir, 'dist', 'sqlite.cjs'));
    writeFileSync(join(dir, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'), '');
    writeFileSync(join(dir, 'node_modules', 'better-sqlite3', 'package.json'), JSON.stringify({ name: 'better-sqlite3', version: `${installedVersion}-other` }));
    expect(driverFrom(join(dir, 'dist', 'sqlite.cjs'))).toEqual({ addon: null, opened: false });
  });

  it('a post_tool call that stashes a view loads the driver from dist/sqlite.cjs, not from node_modules', () => {
    const event = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/claude-code-hook-samples/PostToolUse__Bash.json'), 'utf8')) as { tool_response: object };
    const report = readFileSync(join(ROOT, 'test/fixtures/corpus-commands/cases/test-pytest-fail-more-itertools/stdout.txt'), 'utf8');
    const input = JSON.stringify({ ...event, tool_input: { command: './scripts/check.sh' }, tool_response: { ...event.tool_response, stdout: report, stderr: '' } });
    const dataDir = mkdtempSync(join(tmpdir(), 'sqlite-driver-data-'));
    // Which files the process required, in order: the driver's own lib/database.js must not be among them.
    const trace = join(dataDir, 'required.txt');
    const preload = join(dataDir, 'trace.cjs');
    writeFileSync(preload, `const M = require('node:module'); const fs = require('node:fs'); const load = M._load; M._load = function (request, ...rest) { fs.appendFileSync(${JSON.stringify(trace)}, request + '\\n'); return load.call(this, request, ...rest); };`);
    const out = execFileSync(process.execPath, ['-r', preload, join(ROOT, 'dist', 'cli.cjs'), 'hook', 'post_tool'], { input, encoding: 'utf8', env: { ...process.env, TOKENLESS_DATA_DIR: dataDir } });
    expect(out).toContain('tokenless retrieve');
    const required = readFileSync(trace, 'utf8').split('\n');
    expect(required.some((request) => request.endsWith('better_sqlite3.node'))).toBe(true);
    expect(required.filter((request) => request === 'better-sqlite3' || request.includes('./database') || request === 'bindings')).toEqual([]);
  });
});
