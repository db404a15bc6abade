/**
 * Issue 30, item 19, end to end: the offline tools never hang, grow or write through a link on hostile inputs. A
 * folder holding a FIFO named `*.jsonl`, a link to /dev/zero, a gzip bomb and a dangling link next to one real
 * transcript; the same FIFO and device named to `syt cost history`; a `TODO.md` that links outside the project. Each
 * run has a short timeout, so a regression fails rather than hangs.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.ts';
import { FIXTURES_DIR } from '../helpers/fixtures.ts';
import { ROOT } from '../helpers/root.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();
const TRANSCRIPT = join(FIXTURES_DIR, 'transcripts', 'claude-code', '1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl');
const TIMEOUT_MS = 15_000;

/** The built CLI with a hard timeout (a hang is killed and shows as status null). */
function syt(args: readonly string[], cwd: string = ROOT): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: process.env['HOME'] ?? '/tmp', TZ: 'UTC', NO_COLOR: '1', TOKENLESS_DATA_DIR: tempDir() },
    timeout: TIMEOUT_MS,
    maxBuffer: 16 * 1024 * 1024,
  });
  return { status: result.status, stdout: result.stdout.toString('utf8'), stderr: result.stderr.toString('utf8') };
}

/** A FIFO named like a transcript and a link to /dev/zero; with `all`, also a real transcript, a bomb, a dangling link. */
function hostileFolder(all: boolean): string {
  const dir = tempDir();
  spawnSync('mkfifo', [join(dir, 'fifo.jsonl')]);
  symlinkSync('/dev/zero', join(dir, 'zero.jsonl'));
  if (!all) return dir;
  copyFileSync(TRANSCRIPT, join(dir, 'real.jsonl'));
  symlinkSync(join(dir, 'gone.jsonl'), join(dir, 'dangling.jsonl'));
  // 65 MiB of zeros in about 65 KB, just past the inflation bound: inflating it whole is what the bound prevents.
  writeFileSync(join(dir, 'bomb.md.gz'), gzipSync(Buffer.alloc(65 << 20)));
  return dir;
}

describe('offline tools on hostile inputs', () => {
  it('syt analyze --log DIR reads the real transcript and skips each of the others with one note', () => {
    const dir = hostileFolder(true);
    const result = syt(['analyze', '--log', dir, '--json', '--no-replay']);
    expect(result.status).toBe(0);
    expect((JSON.parse(result.stdout) as { transcripts: unknown[] }).transcripts).toHaveLength(1);
    const notes = result.stderr.split('\n').filter((line) => line.startsWith('syt analyze: skipped '));
    expect(notes.sort()).toEqual([
      `syt analyze: skipped ${join(dir, 'bomb.md.gz')}: inflates past the ${64 << 20}-byte bound`,
      `syt analyze: skipped ${join(dir, 'dangling.jsonl')}: a link to nothing`,
      `syt analyze: skipped ${join(dir, 'fifo.jsonl')}: not a regular file (a FIFO)`,
      `syt analyze: skipped ${join(dir, 'zero.jsonl')}: not a regular file (a device)`,
    ]);
  }, 2 * TIMEOUT_MS);

  it('syt cost history refuses a FIFO and a link to /dev/zero instead of waiting or reading forever', () => {
    const dir = hostileFolder(false);
    for (const name of ['fifo.jsonl', 'zero.jsonl']) {
      const result = syt(['cost', 'history', join(dir, name), '--json']);
      expect(result.status, name).toBe(1);
      expect(result.stderr).toContain('not a regular file');
    }
  }, 3 * TIMEOUT_MS);

  it('syt compact refuses a TODO.md that is a symbolic link, and the file it points to is untouched', () => {
    const dir = tempDir();
    cpSync(join(FIXTURES_DIR, 'projects', 'budget-demo'), dir, { recursive: true });
    const outside = join(tempDir(), 'outside.md');
    copyFileSync(join(dir, 'progress.md'), outside);
    symlinkSync(outside, join(dir, 'TODO.md'));
    const before = readFileSync(outside);
    const result = syt(['compact', 'TODO.md'], dir);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('TODO.md: refused (a symbolic link: it is never written through');
    expect(readFileSync(outside).equals(before)).toBe(true);
  }, 2 * TIMEOUT_MS);
});
