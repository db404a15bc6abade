/** Issue 29's smaller defects that a unit can pin: each test is named after what the defect did. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const scanned = vi.hoisted(() => ({ scan: 0, tokenizer: 0 }));
vi.mock('../../../src/analyze/project-scan.ts', () => ({
  scanProject: () => {
    scanned.scan += 1;
    return [];
  },
}));
vi.mock('../../../src/tokens/count.ts', () => ({
  tokenCounter: () => {
    scanned.tokenizer += 1;
    return Promise.resolve((text: string) => text.length);
  },
}));

const { compactCommand } = await import('../../../commands/compact.ts');
const { ordinal, plural } = await import('../../../commands/ui/format.ts');

const dataDir = mkdtempSync(join(tmpdir(), 'syt-small-defects-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('small defects', () => {
  it('syt compact /nonexistent.md fails before loading the tokenizer or scanning the project (it took 15 s)', async () => {
    vi.stubEnv('TOKENLESS_DATA_DIR', dataDir);
    await expect(compactCommand(['/nonexistent.md'], {})).rejects.toThrow('syt compact: no such file: /nonexistent.md (nothing was changed)');
    expect(scanned).toEqual({ scan: 0, tokenizer: 0 });
    vi.unstubAllEnvs();
  });

  it.each([
    [1, '1st'],
    [2, '2nd'],
    [3, '3rd'],
    [4, '4th'],
    [11, '11th'],
    [12, '12th'],
    [13, '13th'],
    [21, '21st'],
    [22, '22nd'],
    [101, '101st'],
    [111, '111th'],
  ])('ordinal(%i) is %s, never "2th"', (n, expected) => {
    expect(ordinal(n)).toBe(expected);
  });

  it('plural says "1 call", never "1 calls"', () => {
    expect(plural(1, 'call')).toBe('1 call');
    expect(plural(2, 'call')).toBe('2 calls');
    expect(plural(1_500, 'compaction')).toBe('1,500 compactions');
  });
});
