import { mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pruneStale } from '../../../commands/shared/load-cached.ts';

describe('code cache pruning', () => {
  it("removes only the same bundle's cache files of other builds older than a week, never the current build's or another bundle's", () => {
    const dir = mkdtempSync(join(tmpdir(), 'code-cache-'));
    const now = Date.now();
    const days = (n: number): Date => new Date(now - n * 24 * 60 * 60 * 1000);
    const files: Record<string, Date> = {
      'hook.cjs-1-1-v20.0.0.v8': days(30),
      'hook.cjs-2-2-v20.0.0.v8': days(2),
      'hook.cjs-3-3-v22.0.0.v8': days(9),
      'run.cjs-1-1-v20.0.0.v8': days(30),
      'hook.cjs.pre_tool-1-1-v20.0.0.v8': days(30),
      'hook.cjs.pre_tool-3-3-v22.0.0.v8': days(30),
      'hook.cjs.session-3-3-v22.0.0.v8': days(9),
      'hook.cjs-4-4-v20.0.0.v8.123.tmp': days(30),
      'notes.txt': days(30),
    };
    for (const [name, time] of Object.entries(files)) {
      writeFileSync(join(dir, name), 'x');
      utimesSync(join(dir, name), time, time);
    }
    const current = join(dir, 'hook.cjs.post_tool-3-3-v22.0.0.v8');
    writeFileSync(current, 'x');
    pruneStale(current, 'hook.cjs', now);
    // Old builds' caches go, whatever their variant; the current build's other variants stay, however old.
    expect(readdirSync(dir).sort()).toEqual([
      'hook.cjs-2-2-v20.0.0.v8',
      'hook.cjs-3-3-v22.0.0.v8',
      'hook.cjs-4-4-v20.0.0.v8.123.tmp',
      'hook.cjs.post_tool-3-3-v22.0.0.v8',
      'hook.cjs.pre_tool-3-3-v22.0.0.v8',
      'hook.cjs.session-3-3-v22.0.0.v8',
      'notes.txt',
      'run.cjs-1-1-v20.0.0.v8',
    ]);
  });

  it('a missing directory is not an error', () => {
    expect(() => pruneStale(join(tmpdir(), 'no-such-dir-for-code-cache', 'hook.cjs-1.v8'), 'hook.cjs')).not.toThrow();
  });
});
