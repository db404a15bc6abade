/** The `node --test` filter on real TAP, produced by running Node's own test runner on small files at test time. */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findFilter } from '../../../src/filters/registry.ts';
import { estimateTokens } from '../../../src/tokens/estimate.ts';
import { useTempDirs } from '../../helpers/temp.ts';
import { applyFilter } from '../../helpers/streams.ts';

const tempDir = useTempDirs();

function runNodeTest(body: string): { stdout: string; stderr: string; exitCode: number } {
  const dir = tempDir();
  writeFileSync(join(dir, 'suite.test.mjs'), `import test from 'node:test';\nimport assert from 'node:assert';\n${body}\n`);
  const result = spawnSync(process.execPath, ['--test', 'suite.test.mjs'], { cwd: dir, encoding: 'utf8' });
  return { stdout: result.stdout, stderr: result.stderr, exitCode: result.status ?? 1 };
}

const passing = Array.from({ length: 40 }, (_, i) => `test('adds ${i}', () => assert.equal(${i} + 1, ${i + 1}));`).join('\n');

describe('node --test filter', () => {
  it('is chosen for node --test and not for plain node', () => {
    expect(findFilter(['node', '--test'])?.name).toBe('node-test');
    expect(findFilter(['node', 'server.js'])).toBeNull();
  });

  it('keeps every failing test with its assertion, expected/actual and location, and drops the passing ones', () => {
    const run = runNodeTest(`${passing}\ntest('status range', () => assert.equal(600 > 599, false, 'status code out of range'));\ntest('nested', async (t) => { await t.test('inner fails', () => assert.deepStrictEqual({ a: 1 }, { a: 2 })); });`);
    expect(run.exitCode).toBe(1);
    const view = applyFilter(findFilter(['node', '--test', 'suite.test.mjs']), { argv: ['node', '--test'], ...run });
    expect(view).not.toBeNull();
    const text = view?.stdout.text ?? '';
    expect(view?.stdout.lossy).toBe(true);
    for (const needed of ['not ok', 'status range', 'status code out of range', 'inner fails', 'suite.test.mjs:', '# fail 3', 'expected:', 'actual:']) {
      expect(text, needed).toContain(needed);
    }
    expect(text).not.toContain('ok 1 - adds 0');
    expect(estimateTokens(text)).toBeLessThan(estimateTokens(run.stdout) / 3);
  });

  it('reduces a passing run to its summary', () => {
    const run = runNodeTest(passing);
    expect(run.exitCode).toBe(0);
    const text = applyFilter(findFilter(['node', '--test']), { argv: ['node', '--test'], ...run })?.stdout.text ?? '';
    expect(text).toContain('# pass 40');
    expect(text).not.toMatch(/^ok /m);
    expect(estimateTokens(text)).toBeLessThan(estimateTokens(run.stdout) / 10);
  });
});
