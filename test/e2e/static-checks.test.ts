/** The type checker and the type-aware linter are part of the suite, so CI's pass/fail count includes them. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/root.ts';

const bin = (name: string): string => join(ROOT, 'node_modules', '.bin', name);

describe('static checks', () => {
  it('tsc --noEmit reports no error (strict, noUncheckedIndexedAccess)', () => {
    const result = spawnSync(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 300_000);

  it('eslint reports no problem (Ink and React only inside commands/ui/)', () => {
    const result = spawnSync(bin('eslint'), ['.', '--max-warnings', '0'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 300_000);
});
