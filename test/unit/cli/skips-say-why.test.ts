/**
 * A skipped test says why (issue 18): every test file that skips on a condition warns, in words with "skip" in them,
 * what is missing and how to get it; an unconditional skip or todo is not allowed (it would never run, silently).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/root.ts';

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const FILES = testFiles(join(ROOT, 'test')).map((path) => ({ name: relative(ROOT, path), text: readFileSync(path, 'utf8') }));
// Spelled in pieces so that this file does not match itself.
const SKIP_IF = new RegExp(['\\.skip', 'If\\('].join(''));
const UNCONDITIONAL = new RegExp(['\\b(it|describe|test)\\.(skip|todo)', '\\('].join(''));
const WARNS = /console\.warn\([^\n]*skip/;

describe('skipped tests say why', () => {
  it('finds the test files that skip on a condition', () => {
    expect(FILES.filter((file) => SKIP_IF.test(file.text)).length).toBeGreaterThan(5);
  });

  it('every conditional skip comes with a console.warn saying what is missing', () => {
    expect(FILES.filter((file) => SKIP_IF.test(file.text) && !WARNS.test(file.text)).map((file) => file.name)).toEqual([]);
  });

  it('no test is skipped or left as a todo unconditionally', () => {
    expect(FILES.filter((file) => UNCONDITIONAL.test(file.text)).map((file) => file.name)).toEqual([]);
  });
});
