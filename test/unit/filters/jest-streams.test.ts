/** The jest view on real jest 29.7.0 runs whose stdout and stderr were kept apart (test/fixtures/jest/SOURCE.md). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findFilter } from '../../../src/filters/registry.ts';
import type { CommandOutput } from '../../../src/filters/types.ts';
import { applyFilter } from '../../helpers/streams.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../../fixtures/jest', name), 'utf8');
const run = (name: string, exitCode: number): CommandOutput => ({ argv: ['npx', 'jest', '--verbose'], stdout: fixture(`${name}.stdout.txt`), stderr: fixture(`${name}.stderr.txt`), exitCode });
const COUNTS = ['Test Suites: 2 passed, 2 total', 'Tests: 19 passed, 19 total', 'Snapshots: 0 total'];

describe('jest view with the streams kept apart', () => {
  it.each(['pass', 'verbose'])('a passing run (%s) keeps its counts on stderr, where jest printed them', (name) => {
    const v = applyFilter(findFilter(['npx', 'jest']), run(name, 0));
    expect(v?.filter).toBe('jest');
    expect(v?.stderr.lossy).toBe(true);
    for (const line of COUNTS) expect(v?.stderr.text).toContain(line);
    // Nothing is moved to the other stream: stdout held only the tests' console output, dropped (and stashed) or kept.
    expect(v?.stdout.text).not.toContain('Test Suites:');
  });

  it('the streams merged: the counts stay on the one stream', () => {
    const output: CommandOutput = { argv: ['npx', 'jest'], stdout: `${fixture('pass.stderr.txt')}${fixture('pass.stdout.txt')}`, stderr: '', exitCode: 0 };
    const v = applyFilter(findFilter(['npx', 'jest']), output);
    for (const line of COUNTS) expect(v?.stdout.text).toContain(line);
  });

  it('a failing run keeps its diagnostics on stderr and drops the passing tests', () => {
    const v = applyFilter(findFilter(['npx', 'jest']), run('fail', 1));
    const text = v?.stderr.text ?? '';
    for (const needed of ['FAIL src/bad.test.js', '✕ sum is commutative for strings', 'Expected: "ba"', 'Received: "ab"', 'at Object.toBe (src/bad.test.js:3:25)']) {
      expect(text, needed).toContain(needed);
    }
    expect(text).toMatch(/^Tests: +1 failed, 19 passed, 20 total$/m);
    expect(text).not.toMatch(/✓ adds \d+ and 1/);
  });
});
