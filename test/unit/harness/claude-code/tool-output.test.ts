import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPersisted } from '../../../../src/harness/claude-code/tool-output.ts';
import { useTempDirs } from '../../../helpers/temp.ts';

const tempDir = useTempDirs();

describe('readPersisted (issue 15, item 10)', () => {
  it('reads a regular file up to the cap, byte-exact', () => {
    const path = join(tempDir(), 'out.txt');
    writeFileSync(path, 'héllo\n'.repeat(1000));
    // 7 bytes a line (é is two): 7000 bytes in all.
    expect(readPersisted(path, 7000)).toBe('héllo\n'.repeat(1000));
    expect(readPersisted(path, 6999)).toBeNull();
  });

  it('refuses a file over the cap without reading past cap + 1 bytes', () => {
    const path = join(tempDir(), 'out.txt');
    writeFileSync(path, 'x'.repeat(101));
    expect(readPersisted(path, 100)).toBeNull();
    expect(readPersisted(path, 101)).toBe('x'.repeat(101));
  });

  it('refuses devices, FIFOs, directories and missing paths without blocking', () => {
    const dir = tempDir();
    const fifo = join(dir, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // /dev/zero has stat().size 0 and never ends: the old stat check let it through.
    expect(readPersisted('/dev/zero', 1024)).toBeNull();
    expect(readPersisted(fifo, 1024)).toBeNull();
    expect(readPersisted(dir, 1024)).toBeNull();
    expect(readPersisted(join(dir, 'missing'), 1024)).toBeNull();
  });
});
