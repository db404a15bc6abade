/** Issue 30, item 19: the one bounded reader of the offline tools, and compact's no-follow write. */
import { execFileSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { entryKind, readBounded, readBoundedText } from '../../../src/io/bounded-read.ts';
import { whyNotWritable, writeInPlace } from '../../../src/io/write-in-place.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const tempDir = useTempDirs();

describe('readBounded', () => {
  it('reads a regular file, directly or through a link, and inflates a gzip within its bound', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.jsonl'), 'hello\n');
    symlinkSync(join(dir, 'a.jsonl'), join(dir, 'link.jsonl'));
    writeFileSync(join(dir, 'b.md.gz'), gzipSync('# chat\n'));
    expect(readBoundedText(join(dir, 'a.jsonl'))).toEqual({ ok: true, text: 'hello\n' });
    expect(readBoundedText(join(dir, 'link.jsonl'))).toEqual({ ok: true, text: 'hello\n' });
    expect(readBoundedText(join(dir, 'b.md.gz'), { gunzip: true })).toEqual({ ok: true, text: '# chat\n' });
  });

  it('with followLinks false, refuses a link to a regular file and still reads the file itself', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'f.toml'), 'command = "x"\n');
    symlinkSync(join(dir, 'f.toml'), join(dir, 'link.toml'));
    expect(readBoundedText(join(dir, 'link.toml'), { followLinks: false })).toMatchObject({ ok: false, failure: 'link' });
    expect(readBoundedText(join(dir, 'f.toml'), { followLinks: false })).toEqual({ ok: true, text: 'command = "x"\n' });
  });

  it('refuses a FIFO at once instead of waiting for a writer', () => {
    const fifo = join(tempDir(), 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    expect(readBounded(fifo)).toEqual({ ok: false, failure: 'not a regular file', reason: 'not a regular file (a FIFO)' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('refuses a link to a device, a directory, a file over the cap and a gzip that inflates past its cap', () => {
    const dir = tempDir();
    symlinkSync('/dev/zero', join(dir, 'zero.jsonl'));
    expect(readBounded(join(dir, 'zero.jsonl'))).toMatchObject({ ok: false, failure: 'not a regular file', reason: 'not a regular file (a device)' });
    expect(readBounded(dir)).toMatchObject({ ok: false, failure: 'not a regular file' });
    writeFileSync(join(dir, 'big'), 'x'.repeat(101));
    expect(readBounded(join(dir, 'big'), { maxBytes: 100 })).toEqual({ ok: false, failure: 'too large', reason: '101 bytes, over the 100-byte bound' });
    writeFileSync(join(dir, 'bomb.md.gz'), gzipSync(Buffer.alloc(1 << 20)));
    expect(readBounded(join(dir, 'bomb.md.gz'), { gunzip: true, maxInflatedBytes: 1000 })).toEqual({ ok: false, failure: 'too large', reason: 'inflates past the 1000-byte bound' });
    writeFileSync(join(dir, 'plain.gz'), 'not gzip');
    expect(readBounded(join(dir, 'plain.gz'), { gunzip: true })).toMatchObject({ ok: false, failure: 'unreadable' });
  });

  it('tells a dangling link from a missing file', () => {
    const dir = tempDir();
    symlinkSync(join(dir, 'gone'), join(dir, 'dangling.jsonl'));
    expect(readBounded(join(dir, 'dangling.jsonl'))).toEqual({ ok: false, failure: 'dangling link', reason: 'a link to nothing' });
    expect(readBounded(join(dir, 'absent'))).toEqual({ ok: false, failure: 'missing', reason: 'no such file' });
    expect(entryKind(join(dir, 'dangling.jsonl'))).toBe('dangling link');
    expect(entryKind(join(dir, 'absent'))).toBe('missing');
    expect(entryKind(dir)).toBe('directory');
    expect(entryKind('/dev/null')).toBe('other');
  });
});

describe('writeInPlace', () => {
  it('rewrites a regular file and refuses a symbolic link without writing through it', () => {
    const dir = tempDir();
    const outside = join(dir, 'outside.md');
    writeFileSync(outside, 'keep me');
    writeFileSync(join(dir, 'TODO.md'), 'old');
    symlinkSync(outside, join(dir, 'LINKED.md'));
    expect(whyNotWritable(join(dir, 'TODO.md'))).toBeNull();
    writeInPlace(join(dir, 'TODO.md'), 'new');
    expect(readFileSync(join(dir, 'TODO.md'), 'utf8')).toBe('new');
    expect(whyNotWritable(join(dir, 'LINKED.md'))).toMatch(/^a symbolic link/);
    expect(() => writeInPlace(join(dir, 'LINKED.md'), 'overwritten')).toThrow(/ELOOP/);
    expect(readFileSync(outside, 'utf8')).toBe('keep me');
  });
});
